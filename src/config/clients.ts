// Where MCP clients keep their server lists, and how to read one. The shapes follow each client's
// documentation and mcporter 0.9's importers (github.com/steipete/mcporter,
// src/config/imports/{paths,external}.ts at 8cc23a2):
//   claude-code     project: .mcp.json {mcpServers}; user: ~/.claude.json {mcpServers} (user scope)
//                   and {projects: {"<abs project dir>": {mcpServers}}} (local scope)
//   cursor          project: .cursor/mcp.json {mcpServers}; user: ~/.cursor/mcp.json
//   claude-desktop  user: claude_desktop_config.json {mcpServers} in ~/Library/Application Support/Claude
//                   (macOS), %APPDATA%\Claude (Windows), ~/.config/Claude (Linux). mcporter's code reads
//                   settings.json there, its docs claude_desktop_config.json; Anthropic documents the latter.
//   vscode          project: .vscode/mcp.json {servers} (JSONC); user: mcp.json in the profile folder
//                   (Code/User under ~/.config, ~/Library/Application Support or %APPDATA%), per
//                   https://code.visualstudio.com/docs/copilot/reference/mcp-configuration ("Configuration file")
//   windsurf        user: ~/.codeium/windsurf/mcp_config.json {mcpServers} (https://docs.windsurf.com/windsurf/cascade/mcp)
//   zed             project: .zed/settings.json {context_servers} (JSONC); user: ~/.config/zed/settings.json
//                   (%APPDATA%\Zed on Windows), per https://zed.dev/docs/ai/mcp ("As Custom Servers")
//   codex           project: .codex/config.toml (trusted projects); user: $CODEX_HOME/config.toml, default
//                   ~/.codex/config.toml, tables [mcp_servers.<name>] with command, args, env, cwd
//                   (https://github.com/openai/codex/blob/main/docs/config.md, "MCP servers")
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { readRegularFileSync } from '../kit/regular-file.js';
import { ConfigError } from './errors.js';
import { checkConfigShape } from './limits.js';
import { isPlainObject } from './layers.js';
import { toServerEntry } from './client-entry.js';
import { sha256, type TrustStatus } from './trust.js';

export const CLIENT_KINDS = ['claude-code', 'cursor', 'claude-desktop', 'vscode', 'windsurf', 'zed', 'codex'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export type ClientFormat = 'json' | 'jsonc' | 'toml';

/** How a client's file is written: its syntax and the key holding the servers. */
export const CLIENT_FORMATS: Record<ClientKind, { format: ClientFormat; key: string }> = {
  'claude-code': { format: 'json', key: 'mcpServers' },
  cursor: { format: 'json', key: 'mcpServers' },
  'claude-desktop': { format: 'json', key: 'mcpServers' },
  vscode: { format: 'jsonc', key: 'servers' },
  windsurf: { format: 'jsonc', key: 'mcpServers' },
  zed: { format: 'jsonc', key: 'context_servers' },
  codex: { format: 'toml', key: 'mcp_servers' },
};

export interface ClientFile {
  client: ClientKind;
  scope: 'project' | 'user';
  file: string;
}

export interface ClientServers extends ClientFile {
  /** The project the file belongs to (the client starts its servers there). */
  projectDir: string;
  /** Entries in .mcprc's `servers` shape (unknown client-specific keys dropped). */
  servers: Record<string, Record<string, unknown>>;
  /** Entries not taken, with why (disabled, no command or url, mcphost itself). */
  skipped: Array<{ name: string; reason: string }>;
  /** Of the bytes read, for approvals (`mcphost trust`). */
  sha256: string;
  /** Whether its servers may run (set for project files, which wait for `mcphost trust`). */
  trust?: TrustStatus;
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || os.homedir();
}

export function claudeDesktopConfig(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return path.join(home(env), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32')
    return path.join(env.APPDATA || path.join(home(env), 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return path.join(env.XDG_CONFIG_HOME || path.join(home(env), '.config'), 'Claude', 'claude_desktop_config.json');
}

function appData(env: NodeJS.ProcessEnv): string {
  return env.APPDATA || path.join(home(env), 'AppData', 'Roaming');
}

function xdgConfig(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME || path.join(home(env), '.config');
}

/** VS Code's default profile folder holds the user's mcp.json. */
export function vscodeUserConfig(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return path.join(home(env), 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
  if (platform === 'win32') return path.join(appData(env), 'Code', 'User', 'mcp.json');
  return path.join(xdgConfig(env), 'Code', 'User', 'mcp.json');
}

/** Zed keeps its user settings under ~/.config/zed on macOS too (https://zed.dev/docs/configuring-zed). */
export function zedUserConfig(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.join(appData(env), 'Zed', 'settings.json');
  return path.join(xdgConfig(env), 'zed', 'settings.json');
}

export function codexUserConfig(env: NodeJS.ProcessEnv): string {
  return path.join(env.CODEX_HOME || path.join(home(env), '.codex'), 'config.toml');
}

export function windsurfConfig(env: NodeJS.ProcessEnv): string {
  return path.join(home(env), '.codeium', 'windsurf', 'mcp_config.json');
}

/** The files a client reads, project ones (in `projectDir`) first. */
export function clientFiles(client: ClientKind, projectDir: string, env: NodeJS.ProcessEnv): ClientFile[] {
  const at = (scope: ClientFile['scope'], file: string): ClientFile => ({ client, scope, file });
  switch (client) {
    case 'claude-code':
      return [at('project', path.join(projectDir, '.mcp.json')), at('user', path.join(home(env), '.claude.json'))];
    case 'cursor':
      return [at('project', path.join(projectDir, '.cursor', 'mcp.json')), at('user', path.join(home(env), '.cursor', 'mcp.json'))];
    case 'claude-desktop':
      return [at('user', claudeDesktopConfig(env))];
    case 'vscode':
      return [at('project', path.join(projectDir, '.vscode', 'mcp.json')), at('user', vscodeUserConfig(env))];
    case 'windsurf':
      return [at('user', windsurfConfig(env))];
    case 'zed':
      return [at('project', path.join(projectDir, '.zed', 'settings.json')), at('user', zedUserConfig(env))];
    case 'codex':
      return [at('project', path.join(projectDir, '.codex', 'config.toml')), at('user', codexUserConfig(env))];
  }
}

/** Reads one client file; undefined when it does not exist. A file that is not JSON is a ConfigError naming it. */
export function readClientFile(where: ClientFile, projectDir: string, env: NodeJS.ProcessEnv): ClientServers | undefined {
  if (!existsSync(where.file)) return undefined;
  let raw: unknown;
  let bytes: Buffer;
  try {
    // A FIFO or device named like the client's file is refused by type (it would block the read).
    bytes = readRegularFileSync(where.file);
    raw = parseClientText(bytes.toString('utf8'), CLIENT_FORMATS[where.client].format);
  } catch (error) {
    throw new ConfigError(
      `Cannot read ${where.client}'s ${where.file}: ${(error as Error).message} (fix it, or set \`imports: []\` in .mcprc to stop reading it)`,
      [],
      where.file,
    );
  }
  checkConfigShape(raw, where.file);
  const found: ClientServers = { ...where, projectDir: path.resolve(projectDir), servers: {}, skipped: [], sha256: sha256(bytes) };
  if (!isPlainObject(raw)) return found;
  const containers = [raw[CLIENT_FORMATS[where.client].key]];
  // Claude Code's local scope (servers kept for one project inside ~/.claude.json) wins over its user scope.
  if (where.client === 'claude-code' && where.scope === 'user' && isPlainObject(raw.projects)) {
    const project = raw.projects[path.resolve(projectDir)];
    if (isPlainObject(project)) containers.unshift(project.mcpServers);
  }
  const vars = cursorVariables(where, projectDir, env);
  for (const container of containers) {
    if (!isPlainObject(container)) continue;
    for (const [name, value] of Object.entries(container)) {
      if (name in found.servers || found.skipped.some((s) => s.name === name)) continue;
      const entry = toServerEntry(where.client === 'zed' ? zedEntry(value) : value, vars);
      if ('skip' in entry) found.skipped.push({ name, reason: entry.skip });
      else found.servers[name] = entry.server;
    }
  }
  return found;
}

/** A client file's text as a value; JSONC (comments, trailing commas) where the client allows it. */
export function parseClientText(text: string, format: ClientFormat): unknown {
  if (format === 'json') return JSON.parse(text);
  if (format === 'toml') return parseToml(text);
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) throw new SyntaxError(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  return value;
}

/** Zed's older custom-server form nests the command: {"command": {"path", "args", "env"}}. */
function zedEntry(value: unknown): unknown {
  if (!isPlainObject(value) || !isPlainObject(value.command)) return value;
  const { path: command, args, env } = value.command;
  return { ...value, command, args, env };
}

/**
 * Cursor's and VS Code's placeholders (${env:NAME}, ${userHome}, ${workspaceFolder}), rewritten for
 * .mcprc's interpolation. VS Code documents the same predefined variables for mcp.json
 * (https://code.visualstudio.com/docs/reference/variables-reference).
 */
function cursorVariables(where: ClientFile, projectDir: string, env: NodeJS.ProcessEnv): ((text: string) => string) | undefined {
  if (where.client !== 'cursor' && where.client !== 'vscode') return undefined;
  const folder = where.scope === 'project' ? path.resolve(projectDir) : home(env);
  return (text) =>
    text
      .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '${$1}')
      .replace(/\$\{userHome\}/g, home(env).replace(/\$/g, '$$$$'))
      .replace(/\$\{workspaceFolder\}/g, folder.replace(/\$/g, '$$$$'));
}

/** The project files of `kinds` found in `projectDir` (what mcphost reads without being asked). */
export function projectClientServers(kinds: readonly ClientKind[], projectDir: string, env: NodeJS.ProcessEnv): ClientServers[] {
  const out: ClientServers[] = [];
  for (const kind of kinds) {
    for (const where of clientFiles(kind, projectDir, env).filter((f) => f.scope === 'project')) {
      const found = readClientFile(where, projectDir, env);
      if (found) out.push(found);
    }
  }
  return out;
}

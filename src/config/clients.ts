// Where MCP clients keep their server lists, and how to read one. The shapes follow each client's
// documentation and mcporter 0.9's importers (github.com/steipete/mcporter,
// src/config/imports/{paths,external}.ts at 8cc23a2):
//   claude-code     project: .mcp.json {mcpServers}; user: ~/.claude.json {mcpServers} (user scope)
//                   and {projects: {"<abs project dir>": {mcpServers}}} (local scope)
//   cursor          project: .cursor/mcp.json {mcpServers}; user: ~/.cursor/mcp.json
//   claude-desktop  user: claude_desktop_config.json {mcpServers} in ~/Library/Application Support/Claude
//                   (macOS), %APPDATA%\Claude (Windows), ~/.config/Claude (Linux). mcporter's code reads
//                   settings.json there, its docs claude_desktop_config.json; Anthropic documents the latter.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRegularFileSync } from '../lib/regular-file.js';
import { ConfigError } from './errors.js';
import { checkConfigShape } from './limits.js';
import { isPlainObject } from './layers.js';
import { toServerEntry } from './client-entry.js';

export const CLIENT_KINDS = ['claude-code', 'cursor', 'claude-desktop'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

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
  }
}

/** Reads one client file; undefined when it does not exist. A file that is not JSON is a ConfigError naming it. */
export function readClientFile(where: ClientFile, projectDir: string, env: NodeJS.ProcessEnv): ClientServers | undefined {
  if (!existsSync(where.file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFileSync(where.file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Cannot read ${where.client}'s ${where.file}: ${(error as Error).message} (fix it, or set \`imports: []\` in .mcprc to stop reading it)`,
      [],
      where.file,
    );
  }
  checkConfigShape(raw, where.file);
  const found: ClientServers = { ...where, projectDir: path.resolve(projectDir), servers: {}, skipped: [] };
  if (!isPlainObject(raw)) return found;
  const containers = [raw.mcpServers];
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
      const entry = toServerEntry(value, vars);
      if ('skip' in entry) found.skipped.push({ name, reason: entry.skip });
      else found.servers[name] = entry.server;
    }
  }
  return found;
}

/** Cursor's own placeholders (${env:NAME}, ${userHome}, ${workspaceFolder}), rewritten for .mcprc's interpolation. */
function cursorVariables(where: ClientFile, projectDir: string, env: NodeJS.ProcessEnv): ((text: string) => string) | undefined {
  if (where.client !== 'cursor') return undefined;
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

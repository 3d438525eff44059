// `mcphost connect <client>`: adds mcphost to the config of Claude Desktop, Cursor, Claude Code,
// VS Code, Windsurf, Zed or Codex (where each keeps it: src/config/clients.ts).
// A user-level file gets absolute paths to node and mcphost (a client does not start servers from
// your shell, so neither PATH nor a version manager's shims apply); a project's file, which a team
// commits, gets `mcphost` from PATH and paths relative to the project (see portableEnv). Both get the
// .mcprc in use (MCPHOST_CONFIG), and every plugin setting that comes from your environment now.
// Then `doctor` runs with exactly that environment, so a missing setting shows before a client fails.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/resolve.js';
import { notTrustedText, readApprovals, realFile, sha256 } from '../config/trust.js';
import { approveFile } from './trust.js';
import {
  CLIENT_FORMATS,
  claudeDesktopConfig,
  codexUserConfig,
  vscodeUserConfig,
  windsurfConfig,
  zedUserConfig,
  type ClientKind,
} from '../config/clients.js';
import { putClientServer } from '../config/client-write.js';
import { loaderOptions, openConfig, type OpenOptions } from './open.js';
import { doctorReport, type PluginReport } from './inspect.js';
import { configureBackend, importBackend } from '../loader/load.js';
import { runSettings } from '../loader/run-settings.js';
import { NODE_FLAGS } from './node-flags.js';
import { UsageError } from './usage-error.js';

export interface ConnectRequest extends OpenOptions {
  client: ClientKind;
  plugins: string[];
  /** Cursor, VS Code, Zed: the user's file, not the project's; Claude Code: user scope (printed as a `claude mcp add-json` command). */
  global?: boolean;
  name?: string;
  dryRun?: boolean;
  /** The node binary and mcphost's bin/run.js the client should start. */
  node: string;
  bin: string;
}

export interface ConnectReport {
  client: ClientKind;
  /** The file written, or undefined when the entry is to be added with a command. */
  file?: string;
  name: string;
  entry: { type?: 'stdio'; command: string; args: string[]; env: Record<string, string> };
  outcome: 'added' | 'replaced' | 'not written';
  /** For Claude Code's user scope: the command that adds the entry. */
  command?: string;
  doctor: PluginReport[];
  /** Variables of a project entry that still hold a path outside the project (this machine's). */
  machinePaths: string[];
  /** The entry starts `mcphost` from PATH, and this PATH has none: the client would not find it. */
  notOnPath?: boolean;
}

/** Whether `command` is an executable file in one of PATH's folders (with Windows' extensions there). */
function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';') : [''];
  return (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) =>
      exts.some((ext) => {
        try {
          accessSync(path.join(dir, command + ext), constants.X_OK);
          return statSync(path.join(dir, command + ext)).isFile();
        } catch {
          return false;
        }
      }),
    );
}

/** Clients that expand `${workspaceFolder}` in a project's file. */
const WORKSPACE_VARIABLE: ReadonlySet<ClientKind> = new Set(['cursor', 'vscode']);

/**
 * Paths inside the project become relative to it: Cursor expands `${workspaceFolder}` in a project's
 * .cursor/mcp.json (https://cursor.com/docs/context/mcp, "Config interpolation"), VS Code in
 * .vscode/mcp.json (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration: "You can
 * use predefined variables … ${workspaceFolder}"); Claude Code expands only `${VAR}`
 * (https://code.claude.com/docs/en/mcp, "Environment variable expansion in .mcp.json") and starts a
 * project's servers in the project folder, as Zed does since zed-industries/zed#35271 ("Context
 * servers will now be spawned in the currently active project root"), so a plain relative path. MCPHOST_CONFIG
 * outside the project is left out (mcphost finds a user-level config itself); any other path outside
 * it stays, and is reported.
 */
function portableEnv(env: Record<string, string>, client: ClientKind, projectDir: string) {
  const out: Record<string, string> = {};
  const machinePaths: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    const relative = path.isAbsolute(value) ? path.relative(projectDir, value) : undefined;
    const inside = relative !== undefined && !relative.startsWith('..') && !path.isAbsolute(relative);
    if (inside) out[key] = WORKSPACE_VARIABLE.has(client) ? `\${workspaceFolder}/${relative.split(path.sep).join('/')}` : relative || '.';
    else if (key === 'MCPHOST_CONFIG' && relative !== undefined) continue;
    else {
      out[key] = value;
      if (relative !== undefined) machinePaths.push(key);
    }
  }
  return { env: out, machinePaths };
}

/** The entry's environment as the client hands it over (for doctor, which runs it here). */
function expandWorkspace(env: Record<string, string>, projectDir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v.startsWith('${workspaceFolder}') ? projectDir + v.slice('${workspaceFolder}'.length) : v]),
  );
}

/**
 * The entry names the config with MCPHOST_CONFIG, which counts as approval: a found file that would
 * start or import something (or is code) must be approved first, or connect would approve it unasked.
 */
async function refuseUntrusted(resolved: ResolvedConfig, installed: ConnectRequest['installed']): Promise<void> {
  const { trust, config } = resolved;
  if (!trust || trust.trusted) return;
  // Plugin settings that name a program or code to run (godotBinary, pobPath, …).
  const settings = (await runSettings(config.plugins, { installed })).map((s) => s.path);
  const runs =
    resolved.unread ||
    resolved.withheld.length > 0 ||
    Object.keys(config.servers).some((name) => !resolved.imported.has(name)) ||
    Object.values(config.plugins).some((section) => section.module) ||
    settings.length > 0;
  const naming = settings.length > 0 ? ` (it sets ${settings.join(', ')})` : '';
  if (runs)
    throw new UsageError(
      `${resolved.file} would be named in the client's entry, which approves it${naming}: ${notTrustedText(trust)} first`,
    );
}

/**
 * Where the entry goes: the client's file, or nothing when only the client's own CLI may write it.
 * Windsurf and Codex get the user's file: Windsurf has no project file, and Codex reads a project's
 * .codex/config.toml only once the project is trusted in Codex, so the user's file is what works.
 */
function clientTarget(client: ClientKind, cwd: string, env: NodeJS.ProcessEnv, global = false): string | undefined {
  switch (client) {
    case 'claude-desktop':
      return claudeDesktopConfig(env);
    case 'cursor':
      return global ? path.join(env.HOME || '', '.cursor', 'mcp.json') : path.join(cwd, '.cursor', 'mcp.json');
    case 'vscode':
      return global ? vscodeUserConfig(env) : path.join(cwd, '.vscode', 'mcp.json');
    case 'zed':
      return global ? zedUserConfig(env) : path.join(cwd, '.zed', 'settings.json');
    case 'windsurf':
      return windsurfConfig(env);
    case 'codex':
      return codexUserConfig(env);
    case 'claude-code':
      // ~/.claude.json is Claude Code's own state file, rewritten while it runs: `claude mcp add-json` edits it.
      return global ? undefined : path.join(cwd, '.mcp.json');
  }
}

/** Whether the client's file is a project's (committed, used on other machines) rather than the user's. */
function projectScoped(client: ClientKind, global: boolean | undefined): boolean {
  return ['claude-code', 'cursor', 'vscode', 'zed'].includes(client) && !global;
}

export async function connectClient(request: ConnectRequest): Promise<ConnectReport> {
  const named = request.plugins.length > 0;
  const opened = await openConfig({ ...request, plugins: named ? request.plugins : undefined });
  // Without --plugins, the client gets what the .mcprc found here lists (as `serve` would serve).
  const plugins = named ? request.plugins : opened.resolved.file ? opened.resolved.plugins : [];
  if (plugins.length === 0)
    throw new UsageError(
      `name the backends the client should get: --plugins godot,pob${opened.resolved.file ? ` (${opened.resolved.file} lists none)` : ', or list them in a .mcprc here (`mcphost init` writes one)'}`,
    );
  await refuseUntrusted(opened.resolved, request.installed);
  const env: Record<string, string> = {};
  if (opened.resolved.file) env.MCPHOST_CONFIG = opened.resolved.file;
  for (const name of plugins) {
    const loaded = configureBackend(await importBackend(name, loaderOptions(opened, request)), opened.resolved);
    const config = loaded.config as Record<string, unknown>;
    for (const [key, variable] of Object.entries(loaded.backend.env ?? {})) {
      const source = loaded.sources.get(`plugins.${name}.${key}`);
      const value = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], config);
      if (source?.kind === 'env' && value !== undefined) env[variable] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  const name = request.name ?? 'mcphost';
  // A project's file is committed and used on other machines: the entry starts `mcphost` from PATH
  // and names files relative to the project; only user-level files get this machine's absolute paths.
  const project = projectScoped(request.client, request.global);
  const portable = project ? portableEnv(env, request.client, request.cwd) : { env, machinePaths: [] };
  const entry = {
    // VS Code requires the type ("type … Yes", its MCP configuration reference); Claude Code writes it.
    ...((request.client === 'claude-code' || request.client === 'vscode') && { type: 'stdio' as const }),
    command: project ? 'mcphost' : request.node,
    args: [...(project ? [] : [...NODE_FLAGS, request.bin]), 'serve', '--plugins', plugins.join(',')],
    env: portable.env,
  };
  // What the client will see: its own small environment plus the entry's, started where it starts it.
  const clientEnv: NodeJS.ProcessEnv = {
    PATH: request.env.PATH,
    HOME: request.env.HOME,
    USERPROFILE: request.env.USERPROFILE,
    ...(project ? expandWorkspace(portable.env, request.cwd) : env),
  };
  const doctor = await doctorReport({
    cwd: project ? request.cwd : request.env.HOME || request.cwd,
    env: clientEnv,
    plugins,
    installed: request.installed,
    writeLog: () => undefined,
  });
  const file = clientTarget(request.client, request.cwd, request.env, request.global);
  const base = {
    client: request.client,
    file,
    name,
    entry,
    doctor: doctor.plugins,
    machinePaths: portable.machinePaths,
    ...(entry.command === 'mcphost' && !onPath('mcphost', request.env) && { notOnPath: true }),
  };
  if (!file) {
    const json = JSON.stringify(entry).replace(/'/g, `'\\''`);
    return { ...base, outcome: 'not written', command: `claude mcp add-json --scope user ${name} '${json}'` };
  }
  if (request.dryRun) return { ...base, outcome: 'not written' };
  // A project file the user approved stays approved: what changes in it is mcphost's own entry.
  const approved = existsSync(file) && readApprovals(request.env).get(realFile(file))?.sha256 === sha256(readFileSync(file));
  const outcome = putClientServer(file, name, entry, CLIENT_FORMATS[request.client]);
  if (approved) approveFile(file, request.env);
  return { ...base, outcome };
}

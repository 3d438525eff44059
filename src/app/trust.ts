// `mcphost trust [FILE]`: approves a project's config file (its real path and the SHA-256 of its
// content), so the commands, modules and code it names may run; `--list` shows the approvals and
// whether each file is still as approved; `--revoke` takes approvals back. Without FILE it acts on
// what mcphost would read here: the config the search finds and the clients' project files.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { clientFiles, readClientFile, type ClientServers } from '../config/clients.js';
import { ConfigError } from '../config/errors.js';
import { checkOwnership } from '../config/file-safety.js';
import { isPlainObject } from '../config/layers.js';
import { parseConfigFile } from '../config/load-file.js';
import { IMPORT_KINDS } from '../config/schema.js';
import { candidates, isExecutableConfig } from '../config/search.js';
import { readApprovals, realFile, sha256, trustStoreFile, writeApprovals, type Approval } from '../config/trust.js';
import type { InstalledPackage } from '../loader/installed.js';
import { describeRunSetting, runSettings } from '../loader/run-settings.js';
import { UsageError } from './usage-error.js';

export interface TrustRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The file to approve or revoke (default: what mcphost reads here). */
  file?: string;
  action: 'approve' | 'revoke' | 'list';
  /** Installed plugins, whose schemas say which of their settings run something. */
  installed?: InstalledPackage[];
}

export interface TrustEntry {
  file: string;
  sha256?: string;
  /** approve: approved / already; revoke: revoked / not-approved; list: ok / changed / missing. */
  state: 'approved' | 'already' | 'revoked' | 'not-approved' | 'ok' | 'changed' | 'missing';
  /** What the file starts or imports, for the user to read before approving. */
  runs?: string[];
  approvedAt?: string;
}

export interface TrustReport {
  action: TrustRequest['action'];
  /** The record of approvals. */
  store: string;
  files: TrustEntry[];
}

export async function manageTrust(request: TrustRequest): Promise<TrustReport> {
  const { env, action } = request;
  const store = trustStoreFile(env);
  const approvals = readApprovals(env);
  if (action === 'list') {
    const files = [...approvals].map(([file, a]): TrustEntry => {
      const state = !existsSync(file) ? 'missing' : sha256(readFileSync(file)) === a.sha256 ? 'ok' : 'changed';
      return { file, sha256: a.sha256, state, approvedAt: a.approvedAt };
    });
    return { action, store, files };
  }
  const targets = request.file ? [named(request.cwd, request.file)] : foundHere(request.cwd, env);
  if (targets.length === 0) {
    throw new UsageError(
      `nothing to ${action} here: no .mcprc, .mcp.json or .cursor/mcp.json was found from ${request.cwd} (name a file: mcphost trust <file>)`,
    );
  }
  const files: TrustEntry[] = [];
  for (const target of targets) {
    const real = realFile(target);
    if (action === 'revoke') {
      files.push({ file: real, state: approvals.delete(real) ? 'revoked' : 'not-approved' });
      continue;
    }
    const { entry, bytes } = record(target, approvals);
    files.push({ ...entry, runs: await whatItRuns(target, bytes, request) });
  }
  if (files.some((f) => f.state === 'approved' || f.state === 'revoked')) writeApprovals(env, approvals);
  return { action, store, files };
}

/** Approves one file as it is now (what `mcphost trust FILE` records), without describing it. */
export function approveFile(file: string, env: NodeJS.ProcessEnv): TrustEntry {
  const approvals = readApprovals(env);
  const { entry } = record(file, approvals);
  if (entry.state === 'approved') writeApprovals(env, approvals);
  return entry;
}

function record(file: string, approvals: Map<string, Approval>): { entry: TrustEntry; bytes: Buffer } {
  checkOwnership(file);
  const real = realFile(file);
  const bytes = readFileSync(file);
  const digest = sha256(bytes);
  const already = approvals.get(real)?.sha256 === digest;
  if (!already) approvals.set(real, { sha256: digest, approvedAt: new Date().toISOString() });
  return { entry: { file: real, sha256: digest, state: already ? 'already' : 'approved' }, bytes };
}

function named(cwd: string, file: string): string {
  const abs = path.resolve(cwd, file);
  if (!existsSync(abs)) throw new UsageError(`no such file: ${abs}`);
  if (!statSync(abs).isFile()) throw new UsageError(`${abs} is not a file: name the config file to approve`);
  return abs;
}

/** The config the search finds here (unless it is the user's own) and the clients' project files. */
function foundHere(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const found = candidates(cwd, env).find((c) => readable(c.file));
  const clients = IMPORT_KINDS.flatMap((k) => clientFiles(k, cwd, env).filter((f) => f.scope === 'project' && existsSync(f.file)));
  return [...(found && !found.user ? [found.file] : []), ...clients.map((c) => c.file)];
}

/** Not empty, and readable: the file the search would take. */
function readable(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

/**
 * `servers.x: npx -y foo`, `plugins.y.module: /p/y.js`, `plugins.godot.godotBinary: ./godot (a
 * program)`: what approving the file lets run.
 */
async function whatItRuns(file: string, bytes: Buffer, request: TrustRequest): Promise<string[]> {
  if (isExecutableConfig(file)) return ['(JavaScript: the whole file runs as code when mcphost loads it)'];
  const client = clientFiles('claude-code', request.cwd, request.env)
    .concat(clientFiles('cursor', request.cwd, request.env))
    .find((c) => c.scope === 'project' && realFile(c.file) === realFile(file));
  if (client) return describeServers(readClientFile(client, request.cwd, request.env)?.servers ?? {}, `${client.client}'s mcpServers`);
  let raw: unknown;
  try {
    raw = await parseConfigFile(file, bytes.toString('utf8'));
  } catch (error) {
    if (error instanceof ConfigError) return [`(not read: ${error.message})`];
    throw error;
  }
  if (!isPlainObject(raw)) return [];
  const lines = [
    ...describeServers(isPlainObject(raw.servers) ? raw.servers : {}, 'servers'),
    ...describeServers(isPlainObject(raw.mcpServers) ? raw.mcpServers : {}, 'mcpServers'),
  ];
  for (const [name, section] of Object.entries(isPlainObject(raw.plugins) ? raw.plugins : {})) {
    if (isPlainObject(section) && typeof section.module === 'string') lines.push(`plugins.${name}.module: ${section.module}`);
  }
  lines.push(...(await runSettings(raw.plugins, { installed: request.installed })).map(describeRunSetting));
  return lines;
}

function describeServers(servers: ClientServers['servers'] | Record<string, unknown>, prefix: string): string[] {
  return Object.entries(servers).map(([name, entry]) => {
    const e = isPlainObject(entry) ? entry : {};
    const args = Array.isArray(e.args) ? e.args.map(String) : [];
    const what = typeof e.command === 'string' ? [e.command, ...args].join(' ') : typeof e.url === 'string' ? e.url : '?';
    return `${prefix}.${name}: ${what}`;
  });
}

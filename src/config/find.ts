// Finds and reads `.mcprc` (and its siblings): the one named with --config / MCPHOST_CONFIG, else the
// nearest found by the bounded search (search.ts), and says whether it is trusted (trust.ts). A
// file found by searching must be the user's own or root's and writable by nobody else; an
// untrusted executable config is not loaded at all (its content is unknown, so nothing of it
// applies), an untrusted data config is read but what it would start or widen waits for approval.
import path from 'node:path';
import { projectClientServers, type ClientKind, type ClientServers } from './clients.js';
import { ConfigError } from './errors.js';
import { checkOwnership } from './file-safety.js';
import { checkConfigShape } from './limits.js';
import { parseConfigFile } from './load-file.js';
import { IMPORT_KINDS } from './schema.js';
import { candidates, isExecutableConfig } from './search.js';
import { readApprovals, trustStatus, type Approval, type TrustHow, type TrustStatus } from './trust.js';
import { NotRegularFileError, readRegularFileSync } from '../kit/regular-file.js';

export interface FoundConfig {
  /** Absolute path of the file, or undefined when none was found. */
  file?: string;
  raw: Record<string, unknown>;
  /** Servers in MCP clients' project files in the working directory (.mcp.json, .cursor/mcp.json), per `imports`. */
  clients?: ClientServers[];
  /** Whether what the file names may run; absent when there is no file. */
  trust?: TrustStatus;
  /** Set when the file is code that was not loaded because it is not trusted. */
  unread?: boolean;
}

export interface FindOptions {
  cwd: string;
  file?: string;
  /** HOME (where the search stops, the user's config folder), MCPHOST_TRUST_ALL; default: this process's. */
  env?: NodeJS.ProcessEnv;
}

export async function findConfig(options: FindOptions): Promise<FoundConfig> {
  const env = options.env ?? process.env;
  const approvals = readApprovals(env);
  const found = await findMcprc(options, env, approvals);
  const kinds = Array.isArray(found.raw.imports) ? (found.raw.imports as ClientKind[]) : IMPORT_KINDS;
  const clients = projectClientServers(
    kinds.filter((k) => (IMPORT_KINDS as readonly string[]).includes(k)),
    options.cwd,
    env,
  ).map((c) => {
    checkOwnership(c.file, `${c.client} config file`);
    return { ...c, trust: trustStatus(c.file, { sha256: c.sha256 }, 'found', env, approvals) };
  });
  return clients.length > 0 ? { ...found, clients } : found;
}

async function findMcprc(options: FindOptions, env: NodeJS.ProcessEnv, approvals: ReadonlyMap<string, Approval>): Promise<FoundConfig> {
  if (options.file) {
    const file = path.resolve(options.cwd, options.file);
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(file);
    } catch (error) {
      if (error instanceof NotRegularFileError) throw notRegular(error);
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
      throw new ConfigError(`Cannot read config ${file}: ${reason}`, [], file);
    }
    return readFound(file, bytes, 'explicit', env, approvals);
  }
  for (const candidate of candidates(options.cwd, env)) {
    let bytes: Buffer;
    try {
      bytes = readRegularFileSync(candidate.file);
    } catch (error) {
      // A FIFO or device under a config's name would block the read for good: refused, by its type.
      if (error instanceof NotRegularFileError) throw notRegular(error);
      continue; // Unreadable (EACCES) or gone: as if absent, as cosmiconfig's search had it.
    }
    // An empty file is skipped and the search goes on (cosmiconfig's ignoreEmptySearchPlaces).
    if (bytes.toString('utf8').trim() === '') continue;
    checkOwnership(candidate.file);
    return readFound(candidate.file, bytes, candidate.user ? 'user' : 'found', env, approvals);
  }
  return { raw: {} };
}

function notRegular(error: NotRegularFileError): ConfigError {
  return new ConfigError(`Cannot read config ${error.path}: ${error.message}; remove it or rename it`, [], error.path);
}

async function readFound(
  file: string,
  bytes: Buffer,
  how: TrustHow,
  env: NodeJS.ProcessEnv,
  approvals: ReadonlyMap<string, Approval>,
): Promise<FoundConfig> {
  const trust = trustStatus(file, bytes, how, env, approvals);
  if (isExecutableConfig(file) && !trust.trusted) return { file, raw: {}, trust, unread: true };
  const content = bytes.toString('utf8');
  const raw: unknown = content.trim() === '' ? {} : await parseConfigFile(file, bytes);
  if (raw === undefined || raw === null) return { file, raw: {}, trust };
  checkConfigShape(raw, file);
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`Invalid config in ${file}: expected an object at the top level`, [], file);
  }
  return { file, raw: raw as Record<string, unknown>, trust };
}

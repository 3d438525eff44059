// Which config files may start commands, import modules or run as code. A file is trusted when it
// is the user's own (in their mcphost config folder), when it was named explicitly (--config,
// MCPHOST_CONFIG), or when the user approved it with `mcphost trust`, which records its real path
// and the SHA-256 of its content; a file that changed since needs approval again (direnv's `allow`,
// Claude Code's approval of a project's .mcp.json servers). The record is a JSON file in the user's
// own config folder, written atomically and readable by the user alone.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { readRegularFileSync } from '../kit/regular-file.js';
import path from 'node:path';
import { userConfigDir } from './cache-dir.js';
import { ConfigError } from './errors.js';
import { checkOwnership } from './file-safety.js';
import { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';

/** How a file came to be read: named by the user, in their own config folder, or found by searching. */
export type TrustHow = 'explicit' | 'user' | 'found';
type TrustReason = 'explicit' | 'user' | 'approved' | 'trust-all' | 'not-approved' | 'changed';

export interface TrustStatus {
  /** The file's real path (symbolic links resolved). */
  file: string;
  trusted: boolean;
  reason: TrustReason;
  sha256: string;
}

export interface Approval {
  sha256: string;
  approvedAt: string;
}

/** Approves every file found in this run: for CI and scripts in a checkout they just made. Loud by design. */
export const TRUST_ALL_ENV = 'MCPHOST_TRUST_ALL';

export function trustStoreFile(env: NodeJS.ProcessEnv): string {
  return path.join(userConfigDir(env), 'trusted.json');
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The path a file is recorded under: symbolic links resolved, so two names of one file are one entry. */
export function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** `MCPHOST_TRUST_ALL=1` (exactly): anything else but unset, empty or 0 is refused rather than guessed at. */
function trustAll(env: NodeJS.ProcessEnv): boolean {
  const value = env[TRUST_ALL_ENV];
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(
    `Invalid environment: ${TRUST_ALL_ENV}=${JSON.stringify(value)}: set it to 1 to approve every config file, or unset it`,
  );
}

export function readApprovals(env: NodeJS.ProcessEnv): Map<string, Approval> {
  const file = trustStoreFile(env);
  if (!existsSync(file)) return new Map();
  checkOwnership(file, 'approval record');
  let data: unknown;
  try {
    data = JSON.parse(readRegularFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Cannot read the approval record ${file}: ${(error as Error).message}. Delete it (mcphost then asks for every approval again: run \`mcphost trust <file>\`)`,
      [],
      file,
    );
  }
  const approved = (data as { approved?: unknown })?.approved;
  const out = new Map<string, Approval>();
  if (approved && typeof approved === 'object' && !Array.isArray(approved)) {
    for (const [key, value] of Object.entries(approved as Record<string, Partial<Approval>>)) {
      if (typeof value?.sha256 === 'string') out.set(key, { sha256: value.sha256, approvedAt: String(value.approvedAt ?? '') });
    }
  }
  return out;
}

export function writeApprovals(env: NodeJS.ProcessEnv, approvals: ReadonlyMap<string, Approval>): string {
  const file = trustStoreFile(env);
  const approved = Object.fromEntries([...approvals].sort(([a], [b]) => a.localeCompare(b)));
  writeFileAtomic(file, `${JSON.stringify({ version: 1, approved }, null, 2)}\n`, { private: true });
  return file;
}

/** Whether the file with this content (or content of this SHA-256) may run what it names. */
export function trustStatus(
  file: string,
  content: Buffer | { sha256: string },
  how: TrustHow,
  env: NodeJS.ProcessEnv,
  approvals: ReadonlyMap<string, Approval> = readApprovals(env),
): TrustStatus {
  const real = realFile(file);
  const digest = Buffer.isBuffer(content) ? sha256(content) : content.sha256;
  const status = (trusted: boolean, reason: TrustReason): TrustStatus => ({ file: real, trusted, reason, sha256: digest });
  if (how === 'explicit') return status(true, 'explicit');
  if (how === 'user') return status(true, 'user');
  const approval = approvals.get(real);
  if (approval?.sha256 === digest) return status(true, 'approved');
  if (trustAll(env)) return status(true, 'trust-all');
  return status(false, approval ? 'changed' : 'not-approved');
}

/** What a user sees next to an entry that did not run: `not trusted: run \`mcphost trust <file>\``. */
export function notTrustedText(status: Pick<TrustStatus, 'file' | 'reason'>): string {
  const why = status.reason === 'changed' ? ' (it changed since you approved it)' : '';
  return `not trusted: run \`mcphost trust ${status.file}\`${why}`;
}

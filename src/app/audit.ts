// `mcphost audit`: the trail the config names (or the file asked for), read oldest first through
// the filters, each entry handed over as it is read.
import path from 'node:path';
import type { OutcomeKind } from '../audit/outcome.js';
import { parseSince, readAudit } from '../audit/read.js';
import type { AuditEntry } from '../audit/trail.js';
import { openConfig, type OpenOptions } from './open.js';
import { UsageError } from './usage-error.js';

/** The outcomes `--outcome` takes. */
export const OUTCOME_KINDS: readonly OutcomeKind[] = ['policy', 'limit', 'transport', 'jsonrpc', 'tool_error', 'success'];

export interface AuditQuery {
  /** The trail to read, relative to the cwd (default: audit.file of the config). */
  file?: string;
  client?: string;
  tool?: string;
  outcome?: OutcomeKind;
  /** As the user wrote it: an ISO date or time, or a span back (30s, 10m, 2h, 7d). */
  since?: string;
}

export interface AuditRead {
  /** The trail read (its first file's path). */
  file: string;
  /** Its files, oldest first (none when nothing was written yet). */
  files: string[];
  /** Lines that were not JSON. */
  skipped: number;
}

export async function readAuditTrail(options: OpenOptions, query: AuditQuery, each: (entry: AuditEntry) => void): Promise<AuditRead> {
  const since = query.since === undefined ? undefined : parseSince(query.since);
  if (query.since !== undefined && since === undefined)
    throw new UsageError(`--since ${query.since}: expected an ISO date or time (2026-12-03T18:00Z) or a span such as 10m, 2h, 7d`);
  let file = query.file ? path.resolve(options.cwd, query.file) : undefined;
  if (!file) {
    const { resolved } = await openConfig({ ...options, logLevel: 'silent' });
    file = resolved.config.audit.file;
    if (!file) throw new UsageError('no audit trail: set audit.file in the config (serve writes it), or pass --file');
  }
  const report = await readAudit(file, { client: query.client, tool: query.tool, outcome: query.outcome, since }, each);
  return { file, files: report.files, skipped: report.skipped };
}

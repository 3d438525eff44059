// Reads an audit trail back (`mcphost audit`): its files oldest first, line by line (a trail of many
// megabytes is never held whole), each line that parses and passes the filters. A line that is not
// JSON (a file cut short by a crash) is skipped and counted.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { globMatcher } from '../kit/glob.js';
import { trailFiles } from './files.js';
import type { AuditEntry } from './trail.js';
import type { OutcomeKind } from './outcome.js';

export interface AuditFilter {
  client?: string;
  /** A tool name, URI or prompt name, or a `*` glob. */
  tool?: string;
  outcome?: OutcomeKind;
  /** Entries at or after this time (ms since the epoch). */
  since?: number;
}

/** `--since`: an ISO date or time, or a span back from now: 30s, 10m, 2h, 7d. */
export function parseSince(text: string, now = Date.now()): number | undefined {
  const span = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (span) return now - Number(span[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[span[2] as 's' | 'm' | 'h' | 'd'];
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

export async function readAudit(
  file: string,
  filter: AuditFilter,
  each: (entry: AuditEntry) => void,
): Promise<{ files: string[]; matched: number; skipped: number }> {
  const files = trailFiles(file);
  const tool = filter.tool ? globMatcher([filter.tool]) : undefined;
  let matched = 0;
  let skipped = 0;
  for (const f of files) {
    const lines = createInterface({ input: createReadStream(f, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      let entry: AuditEntry;
      try {
        entry = JSON.parse(line) as AuditEntry;
      } catch {
        skipped++;
        continue;
      }
      if (filter.client !== undefined && entry.client !== filter.client) continue;
      if (tool && !tool(String(entry.tool))) continue;
      if (filter.outcome !== undefined && entry.outcome !== filter.outcome) continue;
      if (filter.since !== undefined && !(Date.parse(entry.time) >= filter.since)) continue;
      matched++;
      each(entry);
    }
  }
  return { files, matched, skipped };
}

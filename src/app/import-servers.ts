// `mcphost servers:import`: copies the servers that the clients of CLIENT_KINDS know into
// `.mcprc` (the one mcphost finds, else a new one here), so `mcphost serve` serves them too. Project
// files come before user ones, the first of a name wins, names .mcprc has already are left alone,
// and entries that start mcphost itself or are disabled in the client are skipped.
import path from 'node:path';
import { CLIENT_KINDS, clientFiles, readClientFile, type ClientKind } from '../config/clients.js';
import { ConfigError } from '../config/errors.js';
import { findConfig } from '../config/find.js';
import { interpolate } from '../config/interpolate.js';
import { addServers, writableFormat } from '../config/mcprc-write.js';

export interface ImportRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  clients?: ClientKind[];
  configFile?: string;
  dryRun?: boolean;
}

export interface ImportReport {
  /** The .mcprc written (or that would be). */
  file: string;
  read: Array<{ client: ClientKind; file: string; servers: string[] }>;
  added: string[];
  /** Already in .mcprc, or found earlier in another client's file. */
  present: string[];
  skipped: Array<{ name: string; file: string; reason: string }>;
  /** The entries, as written (for --dry-run or a config mcphost does not rewrite). */
  entries: Record<string, Record<string, unknown>>;
  written: boolean;
  /** Set when the file written starts nothing until approved: what to run. */
  trustHint?: string;
  /** Entries copied that cannot be used yet (an unset `${VAR}`), with why: mcphost skips them until fixed. */
  warnings: Array<{ name: string; message: string }>;
}

export async function importServers(request: ImportRequest): Promise<ImportReport> {
  const { cwd, env } = request;
  const found = await findConfig({ cwd, file: request.configFile ?? (env.MCPHOST_CONFIG || undefined), env });
  const file = found.file ?? path.join(cwd, '.mcprc');
  const report: ImportReport = { file, read: [], added: [], present: [], skipped: [], entries: {}, written: false, warnings: [] };
  for (const client of request.clients?.length ? request.clients : CLIENT_KINDS) {
    for (const where of clientFiles(client, cwd, env)) {
      const servers = readClientFile(where, cwd, env);
      if (!servers) continue;
      report.read.push({ client, file: where.file, servers: Object.keys(servers.servers) });
      for (const s of servers.skipped) report.skipped.push({ ...s, file: where.file });
      for (const [name, entry] of Object.entries(servers.servers)) {
        if (name in report.entries) {
          report.present.push(name);
          continue;
        }
        // A project's client starts its servers in the project folder.
        const pinned =
          where.scope === 'project' && 'command' in entry && entry.cwd === undefined ? { ...entry, cwd: servers.projectDir } : entry;
        report.entries[name] = pinned;
        const problem = unexpandable(pinned, env, name);
        if (problem) report.warnings.push({ name, message: problem });
      }
    }
  }
  if (request.dryRun || !writableFormat(file) || Object.keys(report.entries).length === 0) return report;
  const { added, present } = addServers(file, report.entries);
  report.added = added;
  report.present.push(...present);
  report.written = added.length > 0;
  // A project's .mcprc starts its servers once approved (your own, or one named with --config, need nothing).
  const trust = report.written
    ? (await findConfig({ cwd, file: request.configFile ?? (env.MCPHOST_CONFIG || undefined), env })).trust
    : undefined;
  if (trust && !trust.trusted) report.trustHint = `its servers start once you approve it: mcphost trust ${trust.file}`;
  return report;
}

/** Why an entry's `${VAR}` references cannot be expanded in this environment (an unset variable), if so. */
function unexpandable(entry: Record<string, unknown>, env: NodeJS.ProcessEnv, name: string): string | undefined {
  try {
    interpolate(entry, env, undefined, ['servers', name]);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const line = error.lines[0];
    return `${line ? `${line.path}: ${line.message}` : error.message}; until then mcphost skips ${name} (everything else works)`;
  }
}

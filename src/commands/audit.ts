import { Flags } from '@oclif/core';
import { openConfig } from '../app/open.js';
import { UsageError } from '../app/usage-error.js';
import { OUTCOME_KINDS, parseSince, readAudit } from '../audit/read.js';
import type { AuditEntry } from '../audit/trail.js';
import { HostCommand } from '../cli/host-command.js';
import path from 'node:path';

export default class Audit extends HostCommand {
  static override summary = 'Show the audit trail: one line per tool call, read and prompt, filtered by client, tool, outcome and time.';
  static override description =
    'Reads the files of audit.file (or --file), oldest first. Outcomes: policy and limit (refused), transport (the backend unreachable, ' +
    'too slow or the call cancelled), jsonrpc (a JSON-RPC error), tool_error (an error result), success.';
  static override examples = [
    '<%= config.bin %> audit --client ci --since 1h',
    '<%= config.bin %> audit --outcome limit --json',
    "<%= config.bin %> audit --tool 'pob_*'",
  ];
  static override enableJsonFlag = true;
  static override flags = {
    file: Flags.string({ description: 'the trail to read (default: audit.file of the config)' }),
    client: Flags.string({ description: 'only this client (a named client, or token, oauth, anonymous, local)' }),
    tool: Flags.string({ description: 'only this tool, URI or prompt (* globs)' }),
    outcome: Flags.option({ options: OUTCOME_KINDS, description: 'only this outcome' })(),
    since: Flags.string({ description: 'only since this time: an ISO date/time, or 30s, 10m, 2h, 7d back' }),
  };

  async run() {
    const { flags } = await this.parse(Audit);
    const options = this.hostOptions(flags);
    const since = flags.since === undefined ? undefined : parseSince(flags.since);
    if (flags.since !== undefined && since === undefined)
      throw new UsageError(`--since ${flags.since}: expected an ISO date or time (2026-12-03T18:00Z) or a span such as 10m, 2h, 7d`);
    let file = flags.file ? path.resolve(options.cwd, flags.file) : undefined;
    if (!file) {
      const { resolved } = await openConfig({ ...options, logLevel: 'silent' });
      file = resolved.config.audit.file;
      if (!file) throw new UsageError('no audit trail: set audit.file in the config (serve writes it), or pass --file');
    }
    const entries: AuditEntry[] = [];
    const json = this.jsonEnabled();
    const report = await readAudit(file, { client: flags.client, tool: flags.tool, outcome: flags.outcome, since }, (e) => {
      if (json) entries.push(e);
      else
        this.log(
          `${e.time}  ${e.client}  ${e.kind === 'tool' ? '' : `${e.kind} `}${e.tool}  ${e.outcome}${e.code !== undefined ? ` (${e.code})` : ''}  ${e.durationMs} ms`,
        );
    });
    if (!json && report.files.length === 0) this.log(`no audit files at ${file} yet`);
    if (report.skipped > 0) this.logToStderr(`skipped ${report.skipped} lines that are not JSON`);
    return { file, files: report.files, entries };
  }
}

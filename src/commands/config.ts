import { configReport, reportFailure, type ConfigReport } from '../app/inspect.js';
import { Flags } from '@oclif/core';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';

export default class Config extends HostCommand {
  static override summary = 'Print the resolved configuration and where each value came from.';
  static override description =
    'Precedence: flags > environment > config file > defaults. Secrets (tokens, server headers and env) are redacted.';
  static override examples = [
    '<%= config.bin %> config',
    '<%= config.bin %> config --plugins godot --json',
    '<%= config.bin %> config --check -c .mcprc',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    plugins: pluginsFlag('whose settings to resolve'),
    check: Flags.boolean({
      description:
        'only validate: every key of the file, environment and flags, and every backend loads with its settings (nothing starts); exit 0, 2 or 3',
    }),
  };

  async run() {
    const { flags } = await this.parse(Config);
    const report = await configReport(this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }));
    if (flags.check) return this.check(report);
    if (!this.jsonEnabled()) {
      this.log(`config file: ${report.file ?? 'none found (searched up from the working directory)'}`);
      if (report.trust?.hint) this.log(`  ${report.trust.hint}`);
      this.log(`plugins: ${report.plugins.value.join(', ') || 'none'}   (${report.plugins.source})`);
      this.log('');
      const rows = flatten(report.config).map(([key, value]) => [key, JSON.stringify(value), report.sources[key] ?? 'default']);
      // A setting waiting for approval with no default has no value to show: its line says why.
      for (const [key, source] of Object.entries(report.sources)) {
        if (source.startsWith('not applied') && !rows.some(([k]) => k === key)) rows.push([key, '(unset)', source]);
      }
      this.log(columns(rows));
      for (const e of report.errors) this.logToStderr(`error in plugin ${e.plugin}: ${e.message}`);
    }
    return this.reportWith(report, reportFailure(report.errors));
  }

  /** `--check`: the verdict alone (a config error is thrown by configReport before this, exit 3). */
  private check(report: ConfigReport) {
    const file = report.file ?? 'no config file (environment and flags only)';
    const verdict = { ok: report.errors.length === 0, file, backends: report.plugins.value, errors: report.errors };
    if (!this.jsonEnabled()) {
      if (verdict.ok) this.log(`${file}: valid (${verdict.backends.join(', ') || 'no backends'})`);
      for (const e of report.errors) this.logToStderr(`${e.plugin}: ${e.message}`);
    }
    return this.reportWith(verdict, reportFailure(report.errors));
  }
}

function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  return prefix ? [[prefix, value]] : [];
}

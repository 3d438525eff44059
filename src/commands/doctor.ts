import { doctorFailure, doctorReport } from '../app/inspect.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';
import { terminalWidth } from '../cli/render.js';
import { colorsFor } from '../cli/style.js';

export default class Doctor extends HostCommand {
  static override summary = 'Check each requested backend: its config, that it loads, and its health — with the fix when not.';
  static override description =
    'Exits 0 when everything is fine; otherwise 3 (config), 2 (a plugin does not load) or 4 (a backend is unhealthy). ' +
    'With --json the report is printed either way, with {"error": {message, exit}} when something failed.';
  static override examples = ['<%= config.bin %> doctor', '<%= config.bin %> doctor --plugins pob,imhex --json'];
  static override enableJsonFlag = true;
  static override flags = {
    plugins: pluginsFlag('to check'),
  };

  async run() {
    const { flags } = await this.parse(Doctor);
    const report = await doctorReport(this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }));
    if (!this.jsonEnabled()) {
      this.log(`config: ${report.file ?? 'no config file found'}${report.trust?.hint ? ` — ${report.trust.hint}` : ''}`);
      if (report.plugins.length === 0)
        this.log(
          `no plugins requested: pass --plugins or add a plugins section to .mcprc${report.file ? '' : ' (`mcphost init` writes one here)'}`,
        );
      const c = colorsFor();
      this.log(
        columns(
          report.plugins.map((p) => [p.ok ? c.green('✔') : c.red('✖'), c.bold(p.name), p.version ?? '', p.message]),
          { gap: 1, width: terminalWidth() },
        ),
      );
    }
    return this.reportWith(report, doctorFailure(report));
  }
}

import { Args } from '@oclif/core';
import { HostCommand } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';
import { terminalWidth } from '../cli/render.js';
import { colorsFor } from '../cli/style.js';
import { serversFailure, serversReport } from '../app/servers-report.js';

export default class Servers extends HostCommand {
  static override summary =
    'List the MCP servers mounted from .mcprc `servers` with their state: connected, or down and why, and their tool count.';
  static override description =
    'Each server is started (stdio) or reached (HTTP) once to check it, then stopped; exits 4 when one is down. ' +
    "Servers of a client's project file (.mcp.json, .cursor/mcp.json) are listed, and started only when named. " +
    'Nothing from a project file that is not trusted is started: exits 2 and says to run `mcphost trust <file>`. ' +
    'Mount a server by adding it under `servers` in .mcprc; see docs/servers.md.';
  static override examples = ['<%= config.bin %> servers', '<%= config.bin %> servers everything --json'];
  static override enableJsonFlag = true;
  static override strict = false;
  static override args = { name: Args.string({ description: 'only these servers (default: all)' }) };

  async run() {
    const { argv, flags } = await this.parse(Servers);
    const report = await serversReport({ ...this.hostOptions(flags), names: argv as string[] });
    if (!this.jsonEnabled()) {
      if (report.servers.length === 0)
        this.log(`no servers in ${report.file ?? '.mcprc (none found)'}: add one under "servers" (see docs/servers.md)`);
      const c = colorsFor();
      const mark = (state: string) =>
        state === 'connected'
          ? c.green('✔')
          : state === 'disabled' || state === 'not-started'
            ? '-'
            : state === 'tools-changed'
              ? c.yellow('!')
              : c.red('✖');
      this.log(
        columns(
          report.servers.map((s) => [
            mark(s.state),
            s.name,
            s.state,
            s.tools !== undefined ? `${s.tools} tools` : '',
            `${s.transport} ${s.target}`,
            s.state === 'connected' ? '' : s.message,
          ]),
          { width: terminalWidth() },
        ),
      );
    }
    // A status report like doctor's: printed (or returned as JSON) either way, and the exit says it.
    return this.reportWith(report, serversFailure(report));
  }
}

import { HostCommand } from '../../cli/host-command.js';
import { columns } from '../../cli/columns.js';
import { firstLine, terminalWidth } from '../../cli/render.js';
import { listBackends } from '../../app/inspect.js';
import { installedPlugins } from '../../cli/installed-plugins.js';

export default class Plugins extends HostCommand {
  static override summary = 'List built-in and installed backends with their versions.';
  static override description =
    'Install more with `mcphost plugins:install <npm package>`, link a local one with `mcphost plugins:link <dir>`, remove one with `mcphost plugins:uninstall <name>`.';
  static override examples = ['<%= config.bin %> plugins', '<%= config.bin %> plugins --json'];
  static override enableJsonFlag = true;

  async run() {
    await this.parse(Plugins);
    const backends = await listBackends(installedPlugins(this.config));
    if (!this.jsonEnabled()) {
      this.log(
        columns(
          backends.map((b) => [
            b.name,
            b.version ?? '?',
            b.kind === 'installed' ? `installed (${b.package})` : 'built-in',
            b.error ? `error: ${firstLine(b.error)}` : firstLine(b.description),
          ]),
          { width: terminalWidth() },
        ),
      );
    }
    return backends;
  }
}

// `mcphost plugins:uninstall`: oclif's, also taking the backend name `mcphost plugins` lists
// (`hello` for mcphost-plugin-hello), and saying what is installed when a name matches nothing.
import { commands } from '@oclif/plugin-plugins';
import { Exit } from '../../cli/exit-codes.js';
import { installedPlugins } from '../../cli/installed-plugins.js';
import { closest } from '../../kit/closest.js';

const OclifUninstall: (typeof commands)['plugins:uninstall'] = commands['plugins:uninstall'];

export default class PluginsUninstall extends OclifUninstall {
  static override summary = 'Remove an installed or linked backend, by the name `mcphost plugins` shows or by its package name.';
  static override examples = ['<%= config.bin %> <%= command.id %> hello', '<%= config.bin %> <%= command.id %> mcphost-plugin-hello'];

  override async run(): Promise<void> {
    const user = this.config.getPluginsList().filter((p) => p.type === 'user' || p.type === 'link');
    const backends = installedPlugins(this.config);
    this.argv = this.argv.map((arg) => {
      if (arg.startsWith('-') || user.some((p) => p.name === arg)) return arg;
      const byBackend = backends.find((b) => b.backendName === arg);
      if (byBackend) return byBackend.packageName;
      if (arg === '.' || arg.includes('/') || arg.includes('\\')) return arg; // a linked folder
      const names = [...backends.map((b) => b.backendName), ...user.map((p) => p.name)];
      const [guess] = closest(arg, names, 1);
      const listed = backends.map((b) => `${b.backendName} (${b.packageName})`).join(', ') || 'none';
      process.stderr.write(`Error: ${arg} is not installed.${guess ? ` Did you mean ${guess}?` : ''} Installed backends: ${listed}\n`);
      return this.exit(Exit.PLUGIN);
    });
    await super.run();
  }
}

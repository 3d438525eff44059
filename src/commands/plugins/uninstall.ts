// `mcphost plugins:uninstall`: oclif's, also taking the backend name `mcphost plugins` lists
// (`hello` for mcphost-plugin-hello), and saying what is installed when a name matches nothing.
import { commands } from '@oclif/plugin-plugins';
import { uninstallArgument } from '../../app/plugin-packages.js';
import { Exit } from '../../cli/exit-codes.js';
import { installedPlugins } from '../../cli/installed-plugins.js';

const OclifUninstall: (typeof commands)['plugins:uninstall'] = commands['plugins:uninstall'];

export default class PluginsUninstall extends OclifUninstall {
  static override summary = 'Remove an installed or linked backend, by the name `mcphost plugins` shows or by its package name.';
  static override examples = ['<%= config.bin %> <%= command.id %> hello', '<%= config.bin %> <%= command.id %> mcphost-plugin-hello'];

  override async run(): Promise<void> {
    const packages = this.config
      .getPluginsList()
      .filter((p) => p.type === 'user' || p.type === 'link')
      .map((p) => p.name);
    const backends = installedPlugins(this.config);
    this.argv = this.argv.map((arg) => {
      const target = uninstallArgument(arg, packages, backends);
      if ('arg' in target) return target.arg;
      process.stderr.write(`Error: ${target.error}\n`);
      return this.exit(Exit.PLUGIN);
    });
    await super.run();
  }
}

import { Flags } from '@oclif/core';
import { initConfig } from '../app/init.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';

export default class Init extends HostCommand {
  static override summary = 'Write a starter .mcprc in this folder for the chosen plugins.';
  static override description =
    "Each plugin's section lists its settings with their defaults, the environment variable that overrides each, and what it is for; " +
    'a setting whose variable is set now is written with that value. Then `mcphost doctor` says what still needs setting up.';
  static override examples = [
    '<%= config.bin %> init --plugins godot,pob',
    'GODOT_DOC_DIR=~/src/godot/doc <%= config.bin %> init -p godot',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    plugins: pluginsFlag('to write sections for (default: pob, which needs nothing external)'),
    force: Flags.boolean({ description: 'replace an existing .mcprc' }),
    'dry-run': Flags.boolean({ description: 'print the file instead of writing it' }),
  };

  async run() {
    const { flags } = await this.parse(Init);
    const options = this.hostOptions(flags);
    const result = await initConfig({
      cwd: options.cwd,
      env: options.env,
      installed: options.installed,
      plugins: this.splitList(flags.plugins) ?? this.splitList(options.env.MCPHOST_PLUGINS) ?? ['pob'],
      force: flags.force,
      write: !flags['dry-run'],
    });
    if (!this.jsonEnabled()) {
      if (!result.written) this.log(result.text.trimEnd());
      else this.log(`wrote ${result.file} (${result.plugins.join(', ')}); next: \`${this.config.bin} doctor\``);
    }
    return result;
  }
}

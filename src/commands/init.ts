import { Flags } from '@oclif/core';
import { initConfig } from '../app/init.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';

export default class Init extends HostCommand {
  static override summary = 'Write a starter .mcprc in this folder for the chosen plugins.';
  static override description =
    "Each plugin's section lists its settings with their defaults, the environment variable that overrides each, and what it is for; " +
    'a setting whose variable is set now is written with that value. The file is approved as yours (mcphost trust), and the checks of ' +
    '`mcphost doctor` run on it: init says what each plugin still needs. With no --plugins, every built-in plugin is tried and those that ' +
    'do not work here yet are left out, with why.';
  static override examples = [
    '<%= config.bin %> init --plugins godot,pob',
    'GODOT_DOC_DIR=~/src/godot/doc <%= config.bin %> init -p godot',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    plugins: pluginsFlag('to write sections for (default: every built-in plugin that works here, and pob)'),
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
      plugins: this.splitList(flags.plugins) ?? this.splitList(options.env.MCPHOST_PLUGINS) ?? [],
      detect: !flags.plugins && !options.env.MCPHOST_PLUGINS,
      force: flags.force,
      write: !flags['dry-run'],
    });
    if (!this.jsonEnabled()) {
      if (!result.written) this.log(result.text.trimEnd());
      else {
        this.log(`wrote ${result.file} (${result.plugins.join(', ')}), approved as yours`);
        for (const c of result.checks) this.log(`${c.ok ? 'ready' : 'needs'}  ${c.plugin}: ${c.message}`);
        for (const c of result.leftOut) this.log(`left out ${c.plugin}, not set up here: ${c.message}`);
        const bin = this.config.bin;
        if (result.leftOut.length)
          this.log(
            `add one once it is set up: \`${bin} init --force --plugins ${[...result.plugins, result.leftOut[0].plugin].join(',')}\``,
          );
        this.log(
          result.checks.every((c) => c.ok)
            ? `next: \`${bin} serve\`, or \`${bin} connect <client>\` to add mcphost to your MCP client`
            : `next: set what is named above, then \`${bin} doctor\``,
        );
      }
    }
    return result;
  }
}

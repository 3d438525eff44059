import { Args } from '@oclif/core';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns, firstLine } from '../cli/render.js';

export default class Prompts extends HostCommand {
  static override summary = 'List the prompts of the chosen backends.';
  static override examples = ['<%= config.bin %> prompts --plugins godot'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Prompts);
    const only = args.plugin ? [args.plugin] : undefined;
    const { registry } = await this.openHost(
      this.hostOptions(flags, { plugins: this.splitPlugins(flags.plugins), only, strict: Boolean(only) }),
    );
    try {
      const prompts = (await registry.prompts(args.plugin)).map((p) => ({
        name: p.publicName,
        plugin: p.plugin,
        title: p.def.title,
        description: p.def.description,
        arguments: p.arguments,
      }));
      if (!this.jsonEnabled()) {
        const rows = prompts.map((p) => [
          p.name,
          p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' '),
          firstLine(p.description),
        ]);
        this.log(rows.length ? columns(rows) : 'no prompts');
      }
      return prompts;
    } finally {
      await registry.close();
    }
  }
}

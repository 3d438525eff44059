import { Args } from '@oclif/core';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns, firstLine } from '../cli/render.js';

export default class Tools extends HostCommand {
  static override summary = 'List the tools of the chosen backends (public names, titles, one-line descriptions).';
  static override examples = ['<%= config.bin %> tools --plugins godot,pob', '<%= config.bin %> tools imhex --json'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Tools);
    const only = args.plugin ? [args.plugin] : undefined;
    const { registry } = await this.openHost(
      this.hostOptions(flags, { plugins: this.splitPlugins(flags.plugins), only, strict: Boolean(only) }),
    );
    try {
      const tools = await registry.tools(args.plugin);
      const data = tools.map((t) => ({
        name: t.publicName,
        plugin: t.plugin,
        localName: t.def.name,
        title: t.def.title,
        description: t.def.description,
        annotations: t.def.annotations,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
      }));
      if (!this.jsonEnabled()) this.log(columns(data.map((t) => [t.name, t.title ?? '', firstLine(t.description)])));
      return data;
    } finally {
      await registry.close();
    }
  }
}

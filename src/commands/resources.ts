import { Args } from '@oclif/core';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns, firstLine } from '../cli/render.js';

export default class Resources extends HostCommand {
  static override summary = 'List resources and resource templates of the chosen backends.';
  static override examples = ['<%= config.bin %> resources godot', '<%= config.bin %> resources --json'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Resources);
    const only = args.plugin ? [args.plugin] : undefined;
    const { registry } = await this.openHost(
      this.hostOptions(flags, { plugins: this.splitPlugins(flags.plugins), only, strict: Boolean(only) }),
    );
    try {
      const resources = await registry.resources(args.plugin);
      const templates = (await registry.resourceTemplates(args.plugin)).map(({ plugin, def }) => ({
        plugin,
        uriTemplate: def.uriTemplate,
        name: def.name,
        title: def.title,
        description: def.description,
        mimeType: def.mimeType,
      }));
      if (!this.jsonEnabled()) {
        const rows = [
          ...templates.map((t) => [t.uriTemplate, 'template', t.title ?? t.name, firstLine(t.description)]),
          ...resources.map((r) => [r.uri, r.mimeType ?? '', r.title ?? r.name, firstLine(r.description)]),
        ];
        this.log(rows.length ? columns(rows) : 'no resources');
      }
      return { resources, templates };
    } finally {
      await registry.close();
    }
  }
}

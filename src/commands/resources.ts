import { Args } from '@oclif/core';
import { downError, listFrom } from '../app/listing.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';
import { firstLine, terminalWidth } from '../cli/render.js';

export default class Resources extends HostCommand {
  static override summary = 'List resources and resource templates of the chosen backends.';
  static override description = 'Exits 4 (after listing the others) when a backend asked for is down.';
  static override examples = ['<%= config.bin %> resources godot', '<%= config.bin %> resources --json'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Resources);
    const listing = await listFrom(
      { ...this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }), plugin: args.plugin },
      async (registry) => ({
        resources: await registry.resources(args.plugin),
        templates: (await registry.resourceTemplates(args.plugin)).map(({ plugin, def }) => ({
          plugin,
          uriTemplate: def.uriTemplate,
          name: def.name,
          title: def.title,
          description: def.description,
          mimeType: def.mimeType,
        })),
      }),
    );
    const { resources, templates } = listing.items;
    const down = downError(listing);
    if (!this.jsonEnabled()) {
      const rows = [
        ...templates.map((t) => [t.uriTemplate, 'template', t.title ?? t.name, firstLine(t.description)]),
        ...resources.map((r) => [r.uri, r.mimeType ?? '', r.title ?? r.name, firstLine(r.description)]),
      ];
      if (rows.length > 0 || !down) this.log(rows.length ? columns(rows, { width: terminalWidth() }) : 'no resources');
    }
    if (down) throw down;
    return { resources, templates };
  }
}

import { Args } from '@oclif/core';
import { downError, listFrom } from '../app/listing.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns, firstLine, terminalWidth } from '../cli/render.js';

export default class Tools extends HostCommand {
  static override summary = 'List the tools of the chosen backends (public names, titles, one-line descriptions).';
  static override description = 'Exits 4 (after listing the others) when a backend asked for is down and so cannot list its tools.';
  static override examples = ['<%= config.bin %> tools --plugins godot,pob', '<%= config.bin %> tools imhex --json'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Tools);
    const listing = await listFrom({ ...this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }), plugin: args.plugin }, (r) =>
      r.tools(args.plugin),
    );
    const data = listing.items.map((t) => ({
      name: t.publicName,
      plugin: t.plugin,
      localName: t.def.name,
      title: t.def.title,
      description: t.def.description,
      annotations: t.def.annotations,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
    }));
    const down = downError(listing);
    // What a file that is not trusted would add is listed too, so the user sees what waits for approval.
    const rows = [
      ...data.map((t) => [t.name, t.title ?? '', firstLine(t.description)]),
      ...listing.untrusted.map((u) => [u.plugin, '', u.hint]),
      ...listing.unusable.map((u) => [u.plugin, '', u.hint]),
    ];
    if (!this.jsonEnabled() && (rows.length > 0 || !down)) this.log(rows.length ? columns(rows, { width: terminalWidth() }) : 'no tools');
    if (down) throw down;
    return data;
  }
}

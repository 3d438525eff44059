import { Args } from '@oclif/core';
import { downError, listFrom } from '../app/listing.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';
import { firstLine, terminalWidth } from '../cli/render.js';

export default class Prompts extends HostCommand {
  static override summary = 'List the prompts of the chosen backends.';
  static override description = 'Exits 4 (after listing the others) when a backend asked for is down.';
  static override examples = ['<%= config.bin %> prompts --plugins godot'];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Prompts);
    const listing = await listFrom({ ...this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }), plugin: args.plugin }, (r) =>
      r.prompts(args.plugin),
    );
    const prompts = listing.items.map((p) => ({
      name: p.publicName,
      plugin: p.plugin,
      title: p.def.title,
      description: p.def.description,
      arguments: p.arguments,
    }));
    const down = downError(listing);
    if (!this.jsonEnabled()) {
      const rows = prompts.map((p) => [
        p.name,
        p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' '),
        firstLine(p.description),
      ]);
      if (rows.length > 0 || !down) this.log(rows.length ? columns(rows, { width: terminalWidth() }) : 'no prompts');
    }
    if (down) throw down;
    return prompts;
  }
}

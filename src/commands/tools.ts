import { Args, Flags } from '@oclif/core';
import { downError, listFrom } from '../app/listing.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { columns } from '../cli/columns.js';
import { firstLine, terminalWidth } from '../cli/render.js';
import { colorsFor } from '../cli/style.js';
import { toolTokens } from '../app/tool-tokens.js';
import type { ListCost, TokenReport } from '../discover/tokens.js';

export default class Tools extends HostCommand {
  static override summary = 'List the tools of the chosen backends (public names, titles, one-line descriptions).';
  static override description = 'Exits 4 (after listing the others) when a backend asked for is down and so cannot list its tools.';
  static override examples = [
    '<%= config.bin %> tools --plugins godot,pob',
    '<%= config.bin %> tools imhex --json',
    '<%= config.bin %> tools --tokens',
  ];
  static override enableJsonFlag = true;
  static override args = { plugin: Args.string({ description: 'only this backend' }) };
  static override flags = {
    plugins: pluginsFlag(),
    tokens: Flags.boolean({
      description: "each tool's context cost in tokens, and the whole tools/list's in both tool modes (flat, discover)",
    }),
  };

  async run() {
    const { args, flags } = await this.parse(Tools);
    const options = { ...this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }), plugin: args.plugin };
    if (flags.tokens) return this.tokens(options);
    const listing = await listFrom(options, (r) => r.tools(args.plugin));
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
    const c = colorsFor();
    const rows = [
      ...data.map((t) => [c.bold(t.name), c.dim(t.title ?? ''), firstLine(t.description)]),
      ...listing.untrusted.map((u) => [c.yellow(u.plugin), '', u.hint]),
      ...listing.unusable.map((u) => [c.yellow(u.plugin), '', u.hint]),
    ];
    if (!this.jsonEnabled() && (rows.length > 0 || !down)) this.log(rows.length ? columns(rows, { width: terminalWidth() }) : 'no tools');
    if (down) throw down;
    return data;
  }

  private async tokens(options: Parameters<typeof listFrom>[0]): Promise<TokenReport> {
    const listing = await toolTokens(options);
    const report = listing.items;
    if (!this.jsonEnabled()) {
      const rows = report.tools.map((t) => [t.name, String(t.tokens), t.pinned ? 'pinned' : '']);
      if (rows.length) this.log(columns(rows, { width: terminalWidth() }));
      const line = (mode: string, c: ListCost, what: string) => `${mode}: ${c.tokens} tokens, ${c.bytes} bytes (${what})`;
      this.log(line('flat', report.flat, `${report.flat.tools} tools`));
      this.log(
        line('discover', report.discover, `3 meta-tools${report.discover.tools > 3 ? ` + ${report.discover.tools - 3} pinned` : ''}`),
      );
      this.log(`tokens counted with ${report.tokenizer} over the JSON a client receives`);
    }
    const down = downError(listing);
    if (down) throw down;
    return report;
  }
}

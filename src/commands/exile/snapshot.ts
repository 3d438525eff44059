import { Flags } from '@oclif/core';
import path from 'node:path';
import { openConfig } from '../../app/open.js';
import { runPluginCommand } from '../../app/plugin-command.js';
import { UsageError } from '../../app/tool-args.js';
import { HostCommand } from '../../cli/host-command.js';
import { progressLine } from '../../cli/progress.js';

interface RecordSummary {
  out: string;
  url: string;
  roots: string[];
  types: number;
  bytes: number;
  calls: number;
  objects: number;
  seconds: number;
  cut?: { reason: string; objects: number; paths: string[] };
}

export default class ExileSnapshot extends HostCommand {
  static override summary = 'Record the live ExileApi HUD into a snapshot file the exile tools can serve offline.';
  static override description =
    'Walks the HUD through its explore tool (breadth-first from the roots, several calls in flight; objects identified by Address, ' +
    'by cycles back to an ancestor, and by their ToString text) and writes the object graph plus the type metadata as one JSON ' +
    'document (format mcphost-exile-snapshot, see docs/exile-snapshot.md). A budget on calls, objects and seconds always ends the ' +
    'recording; what it cut is written in the header (source.cut) and printed. ' +
    'Serve it with plugins.exile.snapshot in .mcprc, or `mcphost call exile <tool> --snapshot FILE`. ' +
    'The HUD address comes from --url, else plugins.exile.url. Exit codes: 0 written, 1 usage, 3 invalid config, 4 HUD unreachable, 5 the HUD returned an error.';
  static override examples = [
    '<%= config.bin %> exile:snapshot --out state.json',
    '<%= config.bin %> exile:snapshot --out player.json --roots Player,Entities --depth 6',
    '<%= config.bin %> exile:snapshot --out offsets.json --roots Player --types "*Offsets"',
    '<%= config.bin %> exile:snapshot --out quick.json --max-seconds 30',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    out: Flags.string({ char: 'o', description: 'snapshot file to write (required)' }),
    roots: Flags.string({ description: 'comma-separated roots to record (default: all but Files and Memory)' }),
    depth: Flags.integer({ description: 'object levels recorded below each root', default: 8, min: 1, max: 32 }),
    items: Flags.integer({ description: 'items recorded per collection', default: 10_000, min: 1, max: 10_000 }),
    types: Flags.string({ description: 'comma-separated globs of extra types whose metadata to record ("*" for all)' }),
    url: Flags.string({ description: "the HUD's MCP endpoint (default: plugins.exile.url, else http://127.0.0.1:5099/mcp)" }),
    'max-calls': Flags.integer({ description: 'explore calls at most (default 200000); the rest is cut', min: 1 }),
    'max-objects': Flags.integer({ description: 'objects recorded at most (default 500000)', min: 1 }),
    'max-seconds': Flags.integer({ description: 'seconds at most (default 240)', min: 1 }),
  };

  async run(): Promise<RecordSummary> {
    const { flags } = await this.parse(ExileSnapshot);
    if (!flags.out) throw new UsageError('--out is required: the snapshot file to write, e.g. --out state.json');
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort(new Error('interrupted')));
    const options = this.hostOptions(flags);
    const { logLevel } = await openConfig(options);
    const progress = progressLine({ json: this.jsonEnabled() });
    const summary = (await runPluginCommand({
      ...options,
      plugin: 'exile',
      command: 'snapshot',
      args: {
        out: path.resolve(flags.out),
        roots: this.splitList(flags.roots),
        depth: flags.depth,
        items: flags.items,
        types: this.splitList(flags.types),
        url: flags.url,
        maxCalls: flags['max-calls'],
        maxObjects: flags['max-objects'],
        maxSeconds: flags['max-seconds'],
      },
      signal: abort.signal,
      onProgress: (p) => progress.update(p, logLevel),
    }).finally(() => progress.stop())) as RecordSummary;
    if (!this.jsonEnabled()) {
      this.log(
        `wrote ${summary.out} (${summary.bytes} bytes): roots ${summary.roots.join(', ')}; ${summary.types} types; ` +
          `${summary.calls} calls, ${summary.objects} objects in ${summary.seconds} s`,
      );
      if (summary.cut)
        process.stderr.write(
          `the ${summary.cut.reason.replace('max', '--max-').toLowerCase()} budget cut ${summary.cut.objects} objects (recorded as stubs), ` +
            `e.g. ${summary.cut.paths.slice(0, 3).join(', ')}: raise it to record them\n`,
        );
    }
    return summary;
  }
}

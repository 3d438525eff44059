import { Args } from '@oclif/core';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { Exit } from '../cli/exit-codes.js';
import { UnknownNameError } from '../registry/errors.js';

export default class Read extends HostCommand {
  static override summary = 'Read a resource by URI and print its contents.';
  static override examples = [
    '<%= config.bin %> read godot://class/Node2D --plugins godot',
    '<%= config.bin %> read "godot://search?q=timer" --json',
  ];
  static override enableJsonFlag = true;
  static override args = { uri: Args.string({ description: 'resource URI', required: true }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Read);
    const { registry } = await this.openHost(this.hostOptions(flags, { plugins: this.splitPlugins(flags.plugins) }));
    try {
      const result = await registry.readResource(args.uri).catch((error: Error) => {
        if (error instanceof UnknownNameError)
          this.fail(`no resource ${args.uri} in ${registry.hosts.map((h) => h.name).join(', ')}`, Exit.USAGE);
        this.fail(error.message, Exit.TOOL_ERROR);
      });
      if (!this.jsonEnabled()) {
        for (const c of result.contents) {
          const text = c.text ?? `[${c.mimeType ?? 'binary'} ${c.uri}, ${c.blob?.length ?? 0} base64 chars]`;
          process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
        }
      }
      return result;
    } finally {
      await registry.close();
    }
  }
}

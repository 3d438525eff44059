import { Args } from '@oclif/core';
import { readResourceAt } from '../app/resource.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';

export default class Read extends HostCommand {
  static override summary = 'Read a resource by URI and print its contents.';
  static override description =
    "The URI's scheme picks the backend when it names one (godot://… is read by godot); --plugins (or .mcprc) says which otherwise.";
  static override examples = ['<%= config.bin %> read godot://class/Node2D', '<%= config.bin %> read "godot://search?q=timer" --json'];
  static override enableJsonFlag = true;
  static override args = { uri: Args.string({ description: 'resource URI', required: true }) };
  static override flags = {
    plugins: pluginsFlag(),
  };

  async run() {
    const { args, flags } = await this.parse(Read);
    const result = await readResourceAt({ ...this.hostOptions(flags, { plugins: this.splitList(flags.plugins) }), uri: args.uri });
    if (!this.jsonEnabled()) {
      for (const c of result.contents) {
        const text = c.text ?? `[${c.mimeType ?? 'binary'} ${c.uri}, ${c.blob?.length ?? 0} base64 chars]`;
        process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
    }
    return result;
  }
}

// `mcphost plugins:new <name>`: writes a backend package to start from, installable as it is.
import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { writePluginScaffold } from '../../app/plugin-scaffold.js';
import { HostCommand } from '../../cli/host-command.js';

export default class PluginsNew extends HostCommand {
  static override summary = 'Write a new backend package (mcphost-plugin-<name>/) that installs and answers a call as it is.';
  static override description =
    'The package is plain JavaScript: package.json (an oclif plugin naming its backend), backend.js (one setting, one tool, ' +
    'a health check), a test that calls it through mcphost (npm test) and a README. Link it with `mcphost plugins:link <folder>` ' +
    'while developing, or pack and install it.';
  static override examples = ['<%= config.bin %> plugins:new hello', '<%= config.bin %> plugins:new hello --dir ~/src'];
  static override enableJsonFlag = true;
  static override args = { name: Args.string({ required: true, description: 'the backend name (lower case, digits, dashes)' }) };
  static override flags = { dir: Flags.string({ description: 'folder to write the package in (default: this folder)' }) };

  async run() {
    const { args, flags } = await this.parse(PluginsNew);
    const made = writePluginScaffold(args.name, path.resolve(flags.dir ?? '.'));
    const rel = path.relative(process.cwd(), made.dir) || '.';
    if (!this.jsonEnabled()) {
      this.log(`wrote ${rel}/ (${made.files.join(', ')})`);
      this.log(`next: ${this.config.bin} plugins:link ${rel.startsWith('.') ? rel : `./${rel}`}`);
      this.log(`      ${this.config.bin} call ${made.name} greet --name Ada`);
    }
    return made;
  }
}

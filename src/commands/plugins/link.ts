// `mcphost plugins:link`: oclif's linker, then the same check as plugins:install: the linked
// folder's backend must load, or the link is undone and reported.
import path from 'node:path';
import { commands } from '@oclif/plugin-plugins';
import { linkedPackage } from '../../app/plugin-packages.js';
import { checkAddedBackend } from '../../cli/backend-check.js';

const OclifLink: (typeof commands)['plugins:link'] = commands['plugins:link'];

export default class PluginsLink extends OclifLink {
  static override summary = 'Link a backend package in a local folder (for developing one); it is checked like an installed one.';
  static override description =
    'The folder is an oclif plugin naming its backend ("mcphost": { "backend": "./backend.js" } in package.json). ' +
    'After linking, mcphost imports the backend and checks it against the contract; one that does not load is unlinked again (exit 2).';

  override async run(): Promise<void> {
    const { args } = await this.parse(OclifLink);
    const root = path.resolve(args.path);
    await super.run();
    const linked = linkedPackage(root);
    if (!linked) return; // oclif refused the folder and said why
    const { name, backend: pkg } = linked;
    if (!pkg) {
      process.stderr.write(
        `Warning: ${name} is linked, but its package.json names no backend, so mcphost serves nothing from it: ` +
          `add "mcphost": { "backend": "./backend.js" }.\n`,
      );
      return;
    }
    await checkAddedBackend(this, pkg, { done: 'linked', undone: 'unlinked' });
  }
}

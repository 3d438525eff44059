// `mcphost plugins:install`: oclif's installer, taking folders and tarballs on this disk too, and
// checking that an installed backend loads (one that does not is uninstalled again and reported).
import { commands } from '@oclif/plugin-plugins';
import { installedSince, installSource } from '../../app/plugin-packages.js';
import { checkAddedBackend } from '../../cli/backend-check.js';
import { Exit } from '../../cli/exit-codes.js';

const OclifInstall: (typeof commands)['plugins:install'] = commands['plugins:install'];
type Parsed = Awaited<ReturnType<InstanceType<typeof OclifInstall>['parsePlugin']>>;

export default class PluginsInstall extends OclifInstall {
  static override summary = 'Install a third-party backend: an npm package, a folder, or a .tgz made with `npm pack`.';
  static override description =
    'A backend package is an oclif plugin (an "oclif" section in its package.json) that names its backend: "mcphost": { "backend": "./backend.js" }. ' +
    "It imports `mcphost` and `mcphost/kit` (provided by this mcphost; it does not install them) and may use mcphost's zod. " +
    'After installing, mcphost imports the backend and checks it against the contract; one that does not load is uninstalled again (exit 2).';
  static override examples = [
    { command: '<%= config.bin %> <%= command.id %> mcphost-plugin-foo', description: 'From npm.' },
    { command: '<%= config.bin %> <%= command.id %> ./mcphost-plugin-foo-1.0.0.tgz', description: 'A tarball made with npm pack.' },
    {
      command: '<%= config.bin %> <%= command.id %> ../mcphost-plugin-foo',
      description: 'A folder (npm links it; its dependencies must be installed there).',
    },
  ];

  override async parsePlugin(plugins: Parameters<InstanceType<typeof OclifInstall>['parsePlugin']>[0], input: string): Promise<Parsed> {
    const source = installSource(input);
    if (source.kind === 'npm') return super.parsePlugin(plugins, input);
    if (source.kind === 'missing') this.error(`cannot install ${input}: ${source.message}`, { exit: Exit.USAGE });
    return { type: 'repo', url: source.url };
  }

  override async run(): Promise<void> {
    const added = installedSince(this.config.dataDir);
    await super.run();
    for (const pkg of added()) await checkAddedBackend(this, pkg, { done: 'installed', undone: 'uninstalled' });
  }
}

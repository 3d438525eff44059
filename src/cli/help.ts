// oclif answers `--help` before a command runs; this class makes `mcphost call <plugin> <tool>
// --help` describe that tool (its generated flags) instead of the `call` command.
import { Help } from '@oclif/core';
import { objectShape } from '../lib/zod-introspect.js';
import { prepareOneShot } from '../app/one-shot.js';
import { installedPackages, type OclifPluginLike } from '../loader/installed.js';
import { exitCodeFor } from './host-command.js';
import { splitArgv } from './call-argv.js';
import { toolHelp } from './tool-help.js';

export default class McphostHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const split = argv[0] === 'call' ? safeSplit(argv.slice(1)) : undefined;
    const [plugin, tool] = split?.positionals ?? [];
    if (!split || !plugin || !tool) return super.showHelp(argv);
    try {
      const prepared = await prepareOneShot({
        cwd: process.cwd(),
        env: process.env,
        configFile: split.host.get('config') as string | undefined,
        installed: installedPackages(this.config.getPluginsList() as unknown as OclifPluginLike[]),
        plugin,
        tool,
        flags: [],
      });
      const settings = Object.keys(objectShape(prepared.tool.host.backend.configSchema) ?? {});
      this.log(toolHelp(this.config.bin, plugin, prepared.tool, settings));
      await prepared.registry.close();
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exitCode = exitCodeFor(error) ?? 1;
    }
  }
}

function safeSplit(argv: string[]) {
  try {
    return splitArgv(argv.filter((a) => a !== '--help' && a !== '-h'));
  } catch {
    return undefined;
  }
}

// oclif answers `--help` before a command runs; this class makes `mcphost call <plugin> <tool>
// --help` (or `call <published_name> --help`) describe that tool (its generated flags) instead of
// the `call` command.
import { Help } from '@oclif/core';
import { prepareOneShot } from '../app/one-shot.js';
import { installedPackages, type OclifPluginLike } from '../loader/installed.js';
import { exitCodeFor } from './exit-codes.js';
import { readCallFlags, splitArgv } from './call-argv.js';
import { terminalWidth } from './render.js';
import { toolHelp } from './tool-help.js';

export default class McphostHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const split = argv[0] === 'call' ? safeSplit(argv.slice(1)) : undefined;
    const [plugin, tool] = split?.positionals ?? [];
    // One positional is a published name (they all hold `_`); `call imhex --help` is about `call`.
    if (!split || !plugin || (!tool && !plugin.includes('_')) || split.host.has('url')) return super.showHelp(argv);
    try {
      const flags = readCallFlags(split.host);
      const prepared = await prepareOneShot({
        cwd: process.cwd(),
        env: process.env,
        configFile: flags.config,
        logLevel: flags.logLevel,
        quiet: flags.quiet,
        installed: installedPackages(this.config.getPluginsList() as unknown as OclifPluginLike[]),
        ...(tool ? { plugin, tool } : { tool: plugin }),
        flags: [],
      });
      this.log(toolHelp(this.config.bin, prepared.plugin, prepared.tool, prepared.settingKeys, terminalWidth(), prepared.switches));
      await prepared.registry.close();
    } catch (error) {
      process.stderr.write(`Error: ${(error as Error).message}\n`);
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

// oclif answers `--help` before a command runs; this class makes `mcphost call <plugin> <tool>
// --help` (or `call <published_name> --help`) describe that tool (its generated flags) instead of
// the `call` command; and `mcphost <plugin>:<command> --help` describe the plugin's command.
import { Help } from '@oclif/core';
import { findPluginCommand } from '../app/plugin-command.js';
import { prepareOneShot } from '../app/one-shot.js';
import { installedPlugins } from './installed-plugins.js';
import { exitCodeFor } from './exit-codes.js';
import { readCallFlags, splitArgv } from './call-argv.js';
import { terminalWidth } from './render.js';
import { pluginCommandId } from './plugin-command.js';
import { commandHelp, toolHelp } from './tool-help.js';
import { CALL_FLAGS, COMMAND_FLAGS, type FlagSpec } from './flags.js';

export default class McphostHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const command = argv[0] && !this.config.findCommand(argv[0]) ? pluginCommandId(argv[0]) : undefined;
    if (command && !this.config.findTopic(command.plugin)) return this.pluginCommandHelp(argv[0], command, argv.slice(1));
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
        installed: installedPlugins(this.config),
        ...(tool ? { plugin, tool } : { tool: plugin }),
        flags: [],
      });
      this.log(toolHelp(this.config.bin, prepared.plugin, prepared.tool, prepared.settingKeys, terminalWidth(), prepared.switches));
      await prepared.registry.close();
    } catch (error) {
      fail(error);
    }
  }

  private async pluginCommandHelp(id: string, target: { plugin: string; command: string }, rest: string[]): Promise<void> {
    const host = safeSplit(rest, COMMAND_FLAGS)?.host;
    try {
      const { def, schema } = await findPluginCommand({
        cwd: process.cwd(),
        env: process.env,
        configFile: host?.get('config') as string | undefined,
        quiet: true,
        installed: installedPlugins(this.config),
        ...target,
      });
      this.log(commandHelp(this.config.bin, id, def.summary, schema, terminalWidth()));
    } catch (error) {
      fail(error);
    }
  }
}

function fail(error: unknown): void {
  process.stderr.write(`Error: ${(error as Error).message}\n`);
  process.exitCode = exitCodeFor(error) ?? 1;
}

function safeSplit<T extends FlagSpec = (typeof CALL_FLAGS)[number]>(argv: string[], table?: readonly T[]) {
  try {
    return splitArgv(
      argv.filter((a) => a !== '--help' && a !== '-h'),
      table,
    );
  } catch {
    return undefined;
  }
}

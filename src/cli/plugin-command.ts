// The CLI of a plugin's command (`mcphost exile:snapshot`), made at run time: oclif knows only the
// host's commands, so the command_not_found hook (not-found.ts) hands `<plugin>:<command>` here.
// The argv is split as `call`'s is, with the command's own host flags (COMMAND_FLAGS); the rest are
// read against the command's zod input by the same generator as a tool's flags.
import type { Interfaces } from '@oclif/core';
import { isToolResult, toToolResult } from '../registry/result.js';
import { runPluginCommand } from '../app/plugin-command.js';
import { UsageError } from '../app/usage-error.js';
import { isLogLevel, LOG_LEVELS } from '../lib/logger.js';
import { splitArgv } from './call-argv.js';
import { COMMAND_FLAGS } from './flags.js';
import { oclifFlags } from './oclif-flags.js';
import { HostCommand } from './host-command.js';
import { DEFAULT_SHUTDOWN_MS, onInterrupt } from './interrupt.js';
import { progressLine } from './progress.js';
import { renderResult } from './render.js';

/** `plugin:command` → its two parts, or undefined for an id that cannot name a plugin's command. */
export function pluginCommandId(id: string): { plugin: string; command: string } | undefined {
  const match = /^([^:]+):([^:]+)$/.exec(id);
  return match ? { plugin: match[1], command: match[2] } : undefined;
}

class PluginCommand extends HostCommand {
  static override strict = false;
  static override enableJsonFlag = true;
  static override flags = oclifFlags(COMMAND_FLAGS);

  async run(): Promise<unknown> {
    // The argv is split here (the flags are only known once the plugin is loaded), not by oclif.
    this.parsed = true;
    const target = pluginCommandId(this.id ?? '');
    if (!target) throw new UsageError(`${this.id} does not name a plugin command (<plugin>:<command>)`);
    const split = splitArgv(this.argv, COMMAND_FLAGS);
    if (split.positionals.length > 0)
      throw new UsageError(`unexpected argument ${JSON.stringify(split.positionals[0])}: options of ${this.id} are flags (--name value)`);
    const text = (name: 'config' | 'log-level') => split.host.get(name) as string | undefined;
    const logLevel = text('log-level');
    if (logLevel !== undefined && !isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
    const json = split.host.has('json');
    const abort = new AbortController();
    const interrupt = onInterrupt(abort, DEFAULT_SHUTDOWN_MS);
    const progress = progressLine({ json });
    let result: unknown;
    try {
      result = await runPluginCommand({
        ...this.hostOptions({ config: text('config'), 'log-level': logLevel, quiet: split.host.has('quiet') }),
        ...target,
        flags: split.flags,
        signal: abort.signal,
        onProgress: progress.update,
      });
    } finally {
      progress.stop();
      if (!abort.signal.aborted) interrupt.dispose();
    }
    // Rendered as a tool's result is: a ToolResult's text for people, its structured part as JSON.
    if (!json) this.log(renderResult(toToolResult(result)));
    return isToolResult(result) ? (result.structuredContent ?? result) : result;
  }
}

/** Runs `mcphost <plugin>:<command> …` as a command of its own (its id in messages, --json, exit codes). */
export async function runPluginCommandCli(id: string, argv: string[], config: Interfaces.Config): Promise<unknown> {
  const Command = class extends PluginCommand {
    static override id = id;
  };
  // oclif hands hooks its Config interface; Command.run takes the class (the same object at run time).
  return Command.run(argv, config as PluginCommand['config']);
}

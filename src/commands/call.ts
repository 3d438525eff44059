import { Args } from '@oclif/core';
import { text } from 'node:stream/consumers';
import { failureOf, runOneShot } from '../app/one-shot.js';
import { UsageError } from '../app/tool-args.js';
import { readCallFlags, splitArgv } from '../cli/call-argv.js';
import { CALL_FLAGS, oclifFlags } from '../cli/flags.js';
import { HostCommand } from '../cli/host-command.js';
import { DEFAULT_SHUTDOWN_MS, onInterrupt } from '../cli/interrupt.js';
import { progressLine } from '../cli/progress.js';
import { readableResult } from '../cli/readable.js';
import { renderResult, terminalWidth } from '../cli/render.js';
import { colorsFor } from '../cli/style.js';

export default class Call extends HostCommand {
  static override summary = 'Call one tool: in-process, or through a running `mcphost serve` with --url.';
  static override description =
    "Flags after the tool name are generated from the tool's input schema (see `mcphost call <plugin> <tool> --help`). " +
    'A flag that names a setting of the plugin (imhex --file, exile --snapshot) sets it for this call. ' +
    "A parameter or setting named like one of the flags below goes after `--` (--url is call's only before the tool name). " +
    'Exit codes: 0 ok, 1 usage error (a bad flag or argument, an unknown tool), 2 plugin not found or failed to load, 3 invalid config, 4 backend unreachable, 5 the tool returned an error.';
  static override examples = [
    '<%= config.bin %> call imhex read_bytes --offset 256 --count 16 --file firmware.bin',
    '<%= config.bin %> call godot_search --query "move a character" --limit 5',
    'echo \'{"query":"timer"}\' | <%= config.bin %> call godot search --args -',
    '<%= config.bin %> call pob analyze_build --build build.xml --json',
    '<%= config.bin %> call --url http://127.0.0.1:7010/mcp pob_lua_load_build --build-xml build.xml',
    '<%= config.bin %> call --url http://127.0.0.1:7010/mcp pob lua_get_stats --build-id <build_id from the load>',
  ];
  static override usage = [
    'call <plugin> <tool> [--param value …] [--json] [--args <json|->] [--timeout <ms>]',
    'call <published_name> [--param value …]',
    'call --url <url> <published_name | plugin tool> [--param value …]',
  ];
  static override strict = false;
  static override enableJsonFlag = true;
  static override args = {
    plugin: Args.string({ description: 'plugin (backend) name, or the published tool name (imhex_read_bytes) alone' }),
    tool: Args.string({ description: 'tool name, as the plugin knows it (read_bytes) or as published (imhex_read_bytes)' }),
  };
  // Described for --help from the same table the argv is split with (the global flags included);
  // oclif does not parse them.
  static override flags = oclifFlags(CALL_FLAGS);

  async run(): Promise<void> {
    // call's argv is split here (tool flags are only known once the tool is), not by oclif.
    this.parsed = true;
    const split = splitArgv(this.argv);
    const flags = readCallFlags(split.host);
    const [first, second, ...extra] = split.positionals;
    if (!first)
      throw new UsageError(
        'usage: mcphost call <plugin> <tool> [--param value …], or mcphost call <published_name> (see mcphost call --help)',
      );
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}: tool parameters are flags (--name value)`);
    const argsJson = flags.args === '-' ? await text(process.stdin) : flags.args;

    const abort = new AbortController();
    const interrupt = onInterrupt(abort, DEFAULT_SHUTDOWN_MS);
    const progress = progressLine({ json: flags.json });
    const request = {
      ...this.hostOptions({ config: flags.config, 'log-level': flags.logLevel, quiet: flags.quiet }),
      ...(second === undefined ? { tool: first } : { plugin: first, tool: second }),
      flags: split.flags,
      argsJson,
      timeoutMs: flags.timeoutMs,
      signal: abort.signal,
      onProgress: progress.update,
      onShutdownMs: (ms: number) => interrupt.setDeadline(ms),
    };
    let outcome;
    try {
      // The MCP client (and what it pulls in) loads only for --url: an in-process call starts faster without it.
      outcome = flags.url
        ? await (await import('../app/remote-call.js')).runRemoteCall({ ...request, url: flags.url })
        : await runOneShot(request);
    } catch (error) {
      if (error instanceof UsageError && error.unknownFlag === 'url')
        throw new UsageError(
          `${error.message} (to call through a running mcphost serve, put --url first: mcphost call --url URL <tool> …)`,
        );
      throw error;
    } finally {
      progress.stop();
      // A signal during the report still ends the process within the deadline (the listeners stay for that).
      if (!abort.signal.aborted) interrupt.dispose();
    }
    const failure = failureOf(outcome);
    if (failure) throw failure;
    if (flags.json) this.logJson(outcome.result);
    // A person at a terminal reads an outline; a pipe gets the tool's text exactly as before.
    else if (process.stdout.isTTY) this.log(readableResult(outcome.result, terminalWidth(), colorsFor()));
    else this.log(renderResult(outcome.result));
  }
}

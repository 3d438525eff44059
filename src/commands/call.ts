import { Args, Flags } from '@oclif/core';
import { text } from 'node:stream/consumers';
import { HostCommand } from '../cli/host-command.js';
import { Exit } from '../cli/exit-codes.js';
import { renderResult } from '../cli/render.js';
import { UsageError } from '../app/tool-args.js';
import { splitArgv } from '../cli/call-argv.js';
import { isLogLevel } from '../lib/logger.js';
import { runOneShot } from '../app/one-shot.js';

export default class Call extends HostCommand {
  static override summary = 'Call one tool in-process, without a server.';
  static override description =
    "Flags after the tool name are generated from the tool's input schema (see `mcphost call <plugin> <tool> --help`). " +
    'A flag that names a setting of the plugin (imhex --file, exile --snapshot) sets it for this call. ' +
    'Exit codes: 0 ok, 1 usage error, 2 plugin not found or failed to load, 3 invalid config, 4 backend unreachable, 5 the tool returned an error.';
  static override examples = [
    '<%= config.bin %> call imhex read_bytes --offset 256 --count 16 --file firmware.bin',
    '<%= config.bin %> call godot search --query "move a character" --limit 5',
    'echo \'{"query":"timer"}\' | <%= config.bin %> call godot search --args -',
    '<%= config.bin %> call pob analyze_build --build build.xml --json',
  ];
  static override strict = false;
  static override args = {
    plugin: Args.string({ description: 'plugin (backend) name', required: true }),
    tool: Args.string({ description: 'tool name, as the plugin knows it (read_bytes) or as published (imhex_read_bytes)', required: true }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'print the raw MCP result as JSON' }),
    args: Flags.string({ description: 'all arguments as a JSON object, or - to read it from stdin' }),
    timeout: Flags.integer({ description: 'abort the call after this many milliseconds', min: 1 }),
  };

  async run(): Promise<void> {
    const split = splitArgv(this.argv);
    const [plugin, tool, ...extra] = split.positionals;
    if (!plugin || !tool) this.fail('usage: mcphost call <plugin> <tool> [--param value …] (see mcphost call --help)', Exit.USAGE);
    if (extra.length > 0)
      this.fail(`unexpected argument ${JSON.stringify(extra[0])}: tool parameters are flags (--name value)`, Exit.USAGE);
    const logLevel = split.host.get('log-level');
    if (logLevel !== undefined && !isLogLevel(logLevel)) this.fail('--log-level must be one of error, warn, info, debug', Exit.USAGE);
    const timeout = split.host.get('timeout');
    const timeoutMs = timeout === undefined ? undefined : Number(timeout);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
      this.fail('--timeout expects a positive number of milliseconds', Exit.USAGE);
    const argsFlag = split.host.get('args');
    const argsJson = argsFlag === '-' ? await text(process.stdin) : typeof argsFlag === 'string' ? argsFlag : undefined;

    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort('interrupted'));
    const outcome = await runOneShot({
      ...this.hostOptions({ config: split.host.get('config') as string | undefined, 'log-level': logLevel as never }),
      plugin,
      tool,
      flags: split.flags,
      argsJson,
      timeoutMs,
      signal: abort.signal,
      onProgress: (p) =>
        process.stderr.write(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}\n`),
    }).catch((error: Error) => {
      if (error instanceof UsageError) this.fail(error.message, Exit.USAGE);
      throw error;
    });
    if (split.host.get('json')) this.log(JSON.stringify(outcome.result, null, 2));
    else if (!outcome.error) this.log(renderResult(outcome.result));
    if (outcome.error) {
      const exit =
        outcome.error.kind === 'unavailable' ? Exit.UNAVAILABLE : outcome.error.kind === 'invalid_arguments' ? Exit.USAGE : Exit.TOOL_ERROR;
      if (split.host.get('json')) this.exit(exit);
      this.fail(outcome.error.message, exit);
    }
  }
}

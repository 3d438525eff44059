// `mcphost call` itself, the same whether oclif runs it (src/commands/call.ts: `--help`, and any
// run the fast path leaves to oclif) or bin/run.js's fast path does (call-main.ts).
import { text } from 'node:stream/consumers';
import { failureOf, runOneShot } from '../app/one-shot.js';
import { UsageError } from '../app/usage-error.js';
import type { ToolResult } from '../backend/types.js';
import type { InstalledPackage } from '../loader/installed.js';
import type { CallOutcome } from '../registry/result.js';
import { readCallFlags, splitArgv } from './call-argv.js';
import { hostOptions } from './host-options.js';
import { CommandFailure, type ExitCode } from './exit-codes.js';
import { DEFAULT_SHUTDOWN_MS, onInterrupt } from './interrupt.js';
import { progressLine } from './progress.js';
import { renderResult, terminalWidth } from './render.js';
import { colorsFor } from './style.js';

export interface CallOutput {
  installed: InstalledPackage[];
  /** A line for a person (nothing while JSON output is on). */
  log(line: string): void;
  logJson(json: unknown): void;
}

/** Runs the call `argv` (after `call`) asks for and prints its result; a failure is thrown. */
export async function runCall(argv: string[], out: CallOutput): Promise<void> {
  // call's argv is split here (tool flags are only known once the tool is), not by oclif.
  const split = splitArgv(argv);
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
    ...hostOptions({ config: flags.config, 'log-level': flags.logLevel, quiet: flags.quiet }, out.installed),
    ...(second === undefined ? { tool: first } : { plugin: first, tool: second }),
    flags: split.flags,
    argsJson,
    timeoutMs: flags.timeoutMs,
    asTask: flags.asTask,
    signal: abort.signal,
    onProgress: progress.update,
    onShutdownMs: (ms: number) => interrupt.setDeadline(ms),
    // The answer is printed before the backends stop (a mounted server's stop grace is ~0.5 s).
    onOutcome: async (outcome: CallOutcome) => {
      if (outcome.error) return;
      progress.stop();
      await printResult(outcome.result, flags.json, out);
      printed = true;
    },
  };
  let printed = false;
  let outcome;
  try {
    // The MCP client (and what it pulls in) loads only for --url: an in-process call starts faster without it.
    outcome = flags.url
      ? await (await import('../app/remote-call.js')).runRemoteCall({ ...request, url: flags.url })
      : await runOneShot(request);
  } catch (error) {
    if (error instanceof UsageError && error.unknownFlag === 'url')
      throw new UsageError(`${error.message} (to call through a running mcphost serve, put --url first: mcphost call --url URL <tool> …)`);
    throw error;
  } finally {
    progress.stop();
    // A signal during the report still ends the process within the deadline (the listeners stay for that).
    if (!abort.signal.aborted) interrupt.dispose();
  }
  const failure = failureOf(outcome);
  // Cancelled by Ctrl-C (or SIGTERM, SIGHUP): the signal's code, not a tool error's.
  const interrupted = interrupt.exitCode();
  if (failure && failure.kind === 'cancelled' && interrupted !== undefined)
    throw new CommandFailure(failure.message, interrupted as ExitCode);
  if (failure) throw failure;
  if (!printed) await printResult(outcome.result, flags.json, out);
}

async function printResult(result: ToolResult, json: boolean, out: CallOutput): Promise<void> {
  if (json) out.logJson(result);
  // A person at a terminal reads an outline; a pipe gets the tool's text exactly as before. The
  // outline's wrapping (wrap-ansi, string-width) loads only then: ~30 ms a piped one-shot need not pay.
  else if (process.stdout.isTTY) {
    const { readableResult } = await import('./readable.js');
    out.log(await readableResult(result, terminalWidth(), colorsFor()));
  } else out.log(renderResult(result));
}

/** oclif's rule (Command.jsonEnabled) for a command with --json: before any `--`, or MCPHOST_CONTENT_TYPE=json. */
export function jsonEnabled(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (env.MCPHOST_CONTENT_TYPE?.toLowerCase() === 'json') return true;
  const json = argv.indexOf('--json');
  const dashes = argv.indexOf('--');
  return json !== -1 && (dashes === -1 || json < dashes);
}

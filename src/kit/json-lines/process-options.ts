// The options of a JsonLinesProcess, and their defaults, in one place: every other part of the
// process code reads the normalised object and never restates a default.
import type { Logger } from '../../backend/types.js';

export type JsonMessage = Record<string, unknown>;

export interface JsonLinesProcessOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** The child's whole environment; the parent's is not added. Default: the parent's. */
  env?: Record<string, string | undefined>;
  /** Names the child in messages (default: the command). */
  name?: string;
  /** How long the child may take to print its banner (default 30 s); `start(ms)` overrides it once. */
  startTimeoutMs?: number;
  /** Default per-request timeout (default 10 s); a request past it kills the child. */
  requestTimeoutMs?: number;
  /** After stdin is closed, how long the child may take to exit before SIGTERM, then SIGKILL (default 2 s each). */
  stopGraceMs?: number;
  /** How many stderr lines to keep for error messages (default 20). */
  stderrLines?: number;
  /** Judges the banner; throw to refuse it (the message becomes the start error). Default: `ready === true`. */
  checkReady?(banner: JsonMessage): void;
  /** Answers may carry no id and come in request order (see `JsonLinesPeerOptions.fifo`). */
  fifo?: boolean;
  /**
   * The child also logs on stdout (as PoB's own API does): lines that are not JSON objects are
   * logged and skipped, before the banner too, instead of failing the start.
   */
  stdoutNoise?: boolean;
  /** Every line the child prints (stdout or stderr) before its banner: lets a caller report start-up progress. */
  onStartOutput?(line: string): void;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
}

export interface NormalizedProcessOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  name: string;
  /** The command line, for messages. */
  commandLine: string;
  startTimeoutMs: number;
  requestTimeoutMs: number;
  stopGraceMs: number;
  stderrLines: number;
  checkReady(banner: JsonMessage): void;
  fifo: boolean;
  stdoutNoise: boolean;
  onStartOutput(line: string): void;
  logger: Pick<Logger, 'debug' | 'info' | 'warn'>;
}

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`Expected \`${name}\` to be a positive number of milliseconds, got ${value}`);
  return value;
}

/** A banner passes when it says `ready: true`; otherwise its own error message is the reason. */
function defaultCheckReady(banner: JsonMessage): void {
  if (banner.ready === true) return;
  const error = banner.error as { message?: unknown } | string | undefined;
  const message =
    typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : 'its first line is not a ready banner';
  throw new Error(message);
}

export function normalizeProcessOptions(options: JsonLinesProcessOptions): NormalizedProcessOptions {
  if (typeof options.command !== 'string' || options.command === '')
    throw new TypeError(`Expected \`command\` to be a non-empty string, got ${JSON.stringify(options.command)}`);
  const args = options.args ?? [];
  return {
    command: options.command,
    args,
    cwd: options.cwd,
    env: options.env,
    name: options.name ?? options.command,
    commandLine: [options.command, ...args].join(' '),
    startTimeoutMs: positive(options.startTimeoutMs, 'startTimeoutMs', 30_000),
    requestTimeoutMs: positive(options.requestTimeoutMs, 'requestTimeoutMs', 10_000),
    stopGraceMs: positive(options.stopGraceMs, 'stopGraceMs', 2_000),
    stderrLines: options.stderrLines ?? 20,
    checkReady: options.checkReady ?? defaultCheckReady,
    fifo: options.fifo ?? false,
    stdoutNoise: options.stdoutNoise ?? false,
    onStartOutput: options.onStartOutput ?? (() => undefined),
    logger: options.logger ?? quiet,
  };
}

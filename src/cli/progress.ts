// Progress of a long call on stderr, for a person watching: one line redrawn in place with a bar and
// a percentage (cli-progress) on a terminal, cleared when the call ends. Nothing when stderr is a
// pipe or a file (a log full of progress lines helps nobody), nor with --json, --quiet or a log level
// below info; at debug a pipe gets a plain line at most every two seconds.
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import type { ProgressUpdate } from '../backend/types.js';
import { logsAt, type HostLogLevel } from '../lib/logger.js';

/** The part of stderr the progress line needs (a test passes its own). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** --json: stdout is for a program, and so is the run. */
  json?: boolean;
}

export interface ProgressLine {
  update(update: ProgressUpdate, level: HostLogLevel): void;
  /** Clears the line (call it once the call is over, whatever its outcome). */
  stop(): void;
}

const PIPE_EVERY_MS = 2_000;

// cli-progress loads when a bar is first drawn, on a terminal: most one-shots (piped, or quick) never
// draw one and skip loading it. Synchronous, so the first update draws as before.
let loaded: typeof cliProgressModule | undefined;
const cliProgress = (): typeof cliProgressModule => (loaded ??= createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule);

export function progressLine(options: ProgressOptions = {}): ProgressLine {
  const stream = options.stream ?? process.stderr;
  let bar: cliProgressModule.SingleBar | undefined;
  let lastPiped = 0;
  return {
    update(update, level) {
      if (options.json || !logsAt(level, 'info')) return;
      if (!stream.isTTY) {
        if (!logsAt(level, 'debug') || Date.now() - lastPiped < PIPE_EVERY_MS) return;
        lastPiped = Date.now();
        stream.write(`[mcphost] debug: progress ${describe(update)}\n`);
        return;
      }
      const payload = { message: update.message ?? '', known: update.total !== undefined && update.total > 0 };
      if (!bar) {
        bar = new (cliProgress().SingleBar)({
          stream: stream as NodeJS.WriteStream,
          format: render,
          clearOnComplete: true,
          hideCursor: false,
          fps: 10,
        });
        bar.start(update.total ?? 0, update.progress, payload);
      } else {
        if (update.total !== undefined && update.total !== bar.getTotal()) bar.setTotal(update.total);
        bar.update(update.progress, payload);
      }
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

function describe(update: ProgressUpdate): string {
  const share = update.total ? ` (${percent(update.progress / update.total)}%)` : '';
  return `${update.progress}${update.total !== undefined ? `/${update.total}` : ''}${share}${update.message ? ` ${update.message}` : ''}`;
}

const percent = (ratio: number) => Math.floor(Math.min(Math.max(ratio, 0), 1) * 100);

/** `[=====-----] 42% searched 440401920 of 1073741824 bytes`, cut to the terminal's width. */
const render: cliProgressModule.GenericFormatter = (options, params, payload: { message: string; known: boolean }) => {
  const line = payload.known
    ? `[${cliProgress().Format.BarFormat(params.progress, { ...options, barsize: 20 })}] ${String(percent(params.progress)).padStart(3)}% ${payload.message}`
    : `${payload.message || 'working'} (${params.value})`;
  const width = Math.max(10, (params as { maxWidth?: number }).maxWidth ?? 80) - 1;
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
};

// Shutdown on SIGINT, SIGTERM, SIGHUP and (for stdio) stdin close: stop the transport, stop every
// backend, and exit 0 within the deadline even if a backend hangs in its stop().
//
// Installed before anything is loaded, so a signal that arrives while backends or mounted servers
// are still starting is handled too: it waits (within the deadline) for the host to be ready and
// then closes it. The listeners stay on for the life of the process: execa's signal-exit re-raises
// a signal as soon as its own listener is the only one left, which is what `process.once` allowed
// once the first signal had removed ours, killing the host by the signal before any stop() ran.
import type { Logger } from '../backend/types.js';
import { clampTimeout } from '../registry/limits.js';
import { killIfStillAlive, threadPoolBusy } from '../lib/last-resort.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface ShutdownOptions {
  logger: Logger;
  deadlineMs: number;
  exit?: (code: number) => void;
  /** Called when the deadline passed, just before exiting (default: a watchdog that kills the process should exiting hang). */
  onOverdue?: () => void;
  /** Where the signal listeners go (tests pass an emitter). */
  signals?: Pick<NodeJS.Process, 'on'>;
}

export interface Shutdown {
  /** The logger and deadline from the config, once it is read. */
  configure(settings: { logger?: Logger; deadlineMs?: number }): void;
  /** What shutting down closes, once the host is serving; `alsoOn` also starts it (stdin closed). */
  ready(close: () => Promise<void>, alsoOn?: Promise<void>): void;
  /** Shuts down now (the same path a signal takes). */
  run(why: string): Promise<void>;
}

export function installShutdown(options: ShutdownOptions): Shutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let logger = options.logger;
  let deadlineMs = options.deadlineMs;
  let close: (() => Promise<void>) | undefined;
  let whenReady: (() => void) | undefined;
  let started: Promise<void> | undefined;

  const run = (why: string): Promise<void> => {
    if (started) return started;
    logger.debug(`shutting down (${why})`);
    const ms = clampTimeout(deadlineMs);
    const force = setTimeout(() => {
      logger.warn(`shutdown took longer than ${ms} ms; exiting anyway`);
      (options.onOverdue ?? (() => killIfStillAlive(process.pid)))();
      exit(0);
    }, ms);
    force.unref();
    const closed = close ? Promise.resolve() : new Promise<void>((resolve) => (whenReady = resolve));
    started = closed
      .then(() => close?.())
      .catch((error: Error) => logger.warn(`shutdown: ${error.message}`))
      .finally(() => {
        clearTimeout(force);
        // The watchdog outlives the JavaScript: process.exit joins a thread stuck in the kernel for ever.
        if (!options.exit && threadPoolBusy()) killIfStillAlive(process.pid);
        exit(0);
      });
    return started;
  };

  const target = options.signals ?? process;
  for (const signal of SIGNALS) target.on(signal, () => void run(signal));

  return {
    configure(settings) {
      logger = settings.logger ?? logger;
      deadlineMs = settings.deadlineMs ?? deadlineMs;
    },
    ready(fn, alsoOn) {
      close = fn;
      whenReady?.();
      void alsoOn?.then(() => run('stdin closed'));
    },
    run,
  };
}

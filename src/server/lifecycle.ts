// Shutdown on SIGINT, SIGTERM and (for stdio) stdin close: stop the transport, stop every backend,
// and exit within the deadline even if a backend hangs in its stop().
import type { Logger } from '../backend/types.js';

export interface ShutdownOptions {
  logger: Logger;
  deadlineMs: number;
  close(): Promise<void>;
  /** Also shut down when this resolves (stdin closed by the client). */
  alsoOn?: Promise<void>;
  exit?: (code: number) => void;
}

export function installShutdown(options: ShutdownOptions): () => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started: Promise<void> | undefined;
  const shutdown = (why: string) => {
    if (started) return started;
    options.logger.debug(`shutting down (${why})`);
    const force = setTimeout(() => {
      options.logger.warn(`shutdown took longer than ${options.deadlineMs} ms; exiting anyway`);
      exit(0);
    }, options.deadlineMs);
    force.unref();
    started = options
      .close()
      .catch((error: Error) => options.logger.warn(`shutdown: ${error.message}`))
      .finally(() => {
        clearTimeout(force);
        exit(0);
      });
    return started;
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGHUP', () => void shutdown('SIGHUP'));
  void options.alsoOn?.then(() => shutdown('stdin closed'));
  return () => shutdown('requested');
}

// Ctrl-C, SIGTERM and SIGHUP for a command that runs one thing (`mcphost call`): the first signal
// cancels it through `abort` and the command goes on to close its backends and report; if that has
// not finished within the shutdown deadline, or a second signal comes, the process exits anyway
// (128 + the signal's number, as a shell reports it). Exiting runs the 'exit' hooks that kill every
// child process group, so a mounted server or a luajit never outlives the command; left to the
// default action, SIGTERM and SIGHUP used to end the process without them.
import { killIfStillAlive } from '../lib/last-resort.js';
import { INTERRUPTED } from './exit-codes.js';

type Signal = keyof typeof INTERRUPTED;
const SIGNALS = Object.keys(INTERRUPTED) as Signal[];

/** `timeouts.shutdownMs`'s default, until the config is read. */
export const DEFAULT_SHUTDOWN_MS = 2_000;

export interface Interrupt {
  /** The shutdown deadline from the config, once it is read. */
  setDeadline(ms: number): void;
  /** Removes the listeners (the command finished). */
  dispose(): void;
  /** The exit code of the signal that interrupted the command (128 + its number), if one did. */
  exitCode(): number | undefined;
}

export function onInterrupt(abort: AbortController, deadlineMs: number, exit = (code: number) => process.exit(code)): Interrupt {
  let deadline = deadlineMs;
  let received: Signal | undefined;
  const listener = (signal: Signal) => {
    const code = INTERRUPTED[signal];
    if (received) return exit(code);
    received = signal;
    abort.abort(signal === 'SIGINT' ? 'interrupted' : `interrupted by ${signal}`);
    setTimeout(() => {
      killIfStillAlive(process.pid);
      exit(code);
    }, deadline).unref();
  };
  for (const signal of SIGNALS) process.on(signal, listener);
  return {
    setDeadline: (ms) => void (deadline = ms),
    dispose: () => SIGNALS.forEach((signal) => process.off(signal, listener)),
    exitCode: () => (received ? INTERRUPTED[received] : undefined),
  };
}

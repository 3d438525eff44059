// What a pob_lua_* call reports while it runs, and how it ends when its caller stops waiting.
// Progress goes through the stages of a call on a worker that take time (waiting for one, PoB
// starting, the build loading), always rising, so a client following the call as a task reads
// where it is in the task's status. A caller that cancels (tasks/cancel, notifications/cancelled)
// stops the work; one whose deadline passed does not (the worker finishes, see pool.ts).
import type { ProgressUpdate } from '../../../src/backend/index.js';

export class CallStages {
  private last = -1;

  constructor(private readonly report?: (update: ProgressUpdate) => void) {}

  /** Reports a stage (0-100); one at or below the last is dropped. */
  stage(progress: number, message: string): void {
    if (!this.report || progress <= this.last) return;
    this.last = progress;
    this.report({ progress, total: 100, message });
  }

  /** PoB's own start (0-100) as the 5-60 part of the call. */
  get start(): ((update: ProgressUpdate) => void) | undefined {
    return this.report && ((u) => this.stage(5 + Math.round((u.progress / (u.total ?? 100)) * 55), u.message ?? 'starting PoB'));
  }
}

/** The caller cancelled (as opposed to running out of time, which leaves the worker to finish). */
export function cancelled(signal: AbortSignal | undefined): boolean {
  if (!signal?.aborted) return false;
  const reason = signal.reason as { name?: unknown } | undefined;
  return reason?.name !== 'TimeoutError';
}

/**
 * The work's answer, or the signal's reason as soon as it aborts; `onCancel` runs when the caller
 * cancelled while the work was still running (not when it only ran out of time).
 */
export function abortable<T>(work: Promise<T>, signal?: AbortSignal, onCancel?: () => void): Promise<T> {
  if (!signal) return work;
  let running = true;
  const onAbort = () => {
    if (running && cancelled(signal)) onCancel?.();
  };
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  const done = work.finally(() => {
    running = false;
    signal.removeEventListener('abort', onAbort);
  });
  done.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    done.then(resolve, reject);
  });
}

// One call at a time to an editor. Both editor servers run tool calls on the game thread, one after
// another, and Epic's documentation tells clients not to overlap them; mcphost is the one client
// that several of its own clients share, so it queues their calls here. A caller that gives up
// (its timeout or cancel covers the wait in the queue too) stops waiting at once, but a call the
// editor has begun keeps its place until the editor answers it: the editor cannot stop a tool
// half-way (UnrealMCPServer answers a cancel with -32601; Epic's documentation describes none), so
// sending the next call earlier would overlap the two on the game thread.
import type { ProgressUpdate } from '../../src/backend/index.js';

interface Running {
  what: string;
  since: number;
}

export class EditorQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private current?: Running;
  private waiting = 0;

  /** What the editor is busy with, if anything. */
  get running(): Readonly<Running> | undefined {
    return this.current;
  }

  /** Calls queued behind the one running. */
  get queued(): number {
    return this.waiting;
  }

  /**
   * Runs `work` once every call queued earlier has been answered. The promise rejects with the
   * signal's reason as soon as `signal` aborts; `work`, once begun, still runs to its end.
   */
  run<T>(what: string, signal: AbortSignal, work: () => Promise<T>, progress?: (update: ProgressUpdate) => void): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.current || this.waiting > 0) {
      const ahead = this.current;
      progress?.({
        progress: 0,
        message: ahead
          ? `waiting for the editor: ${ahead.what} is running (${Math.round((Date.now() - ahead.since) / 1000)} s)${this.waiting ? ` and ${this.waiting} more queued` : ''}`
          : `waiting for the editor: ${this.waiting} call${this.waiting === 1 ? '' : 's'} ahead`,
      });
    }
    this.waiting++;
    let counted = true;
    const leave = () => {
      if (counted) this.waiting--;
      counted = false;
    };
    const turn = this.tail.then(async (): Promise<{ value: T } | { skipped: true }> => {
      leave();
      if (signal.aborted) return { skipped: true };
      this.current = { what, since: Date.now() };
      try {
        return { value: await work() };
      } finally {
        this.current = undefined;
      }
    });
    this.tail = turn.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        leave();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(
        (outcome) => {
          signal.removeEventListener('abort', onAbort);
          if ('value' in outcome) resolve(outcome.value);
          else reject(signal.reason);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}

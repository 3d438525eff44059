// A 2026-era request cannot carry a server→client request: when a handler awaits `ctx.elicit` (or a
// mounted 2025-era server asks its client something) during such a request, the call is paused
// here, the request is answered with an input-required result holding the question, and the
// client's retry — whose sealed requestState names the paused call — delivers the answer and picks
// the call up where it waits. A paused call keeps its own deadline (the tool's timeout); one that
// ends while paused is forgotten.
import { randomUUID } from 'node:crypto';
import type { InputRequest, ProgressUpdate } from '../backend/types.js';
import { CancelledError } from '../registry/errors.js';
import { InputBroker } from '../registry/asks.js';

/** Questions asked within this long of each other go to the client together. */
const GATHER_MS = 20;

/** A call running independently of the request that started it. */
export class DetachedRun<T> {
  readonly broker = new InputBroker();
  readonly controller = new AbortController();
  readonly outcome: Promise<T>;
  settled = false;
  /** Where the call's progress goes: the request waiting on it now. */
  onProgress?: (update: ProgressUpdate) => void;

  constructor(start: (signal: AbortSignal, broker: InputBroker, self: DetachedRun<T>) => Promise<T>, release: () => void) {
    this.outcome = start(this.controller.signal, this.broker, this);
    this.outcome.catch(() => undefined);
    void this.outcome
      .finally(() => {
        this.settled = true;
        this.broker.close(new CancelledError('the call ended'));
        release();
      })
      .catch(() => undefined);
  }

  /**
   * Waits until the call ends or waits for answers, while `signal` (the request in progress) stands:
   * its abort cancels the call. `{ asked }` holds every question still open.
   */
  async step(signal: AbortSignal): Promise<{ done: T } | { asked: Record<string, InputRequest> }> {
    const onAbort = () => this.controller.abort(new CancelledError(signal.reason));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const next = await Promise.race([
        this.outcome.then((value) => ({ done: value }) as const),
        this.broker.whenAsked().then(() => 'asked' as const),
      ]);
      if (next !== 'asked') return next;
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      const asked = this.broker.pending();
      // The call may have finished (or stopped waiting) in the meantime.
      if (Object.keys(asked).length === 0) return this.step(signal);
      return { asked };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** The paused calls of one host, by the id their requestState carries. */
export class PausedCalls {
  private readonly calls = new Map<string, DetachedRun<unknown>>();

  constructor(private readonly max = 1000) {}

  /** Keeps `run` until its client comes back for it (or it ends); returns the id to seal. */
  pause(run: DetachedRun<unknown>): string {
    if (this.calls.size >= this.max) {
      // The oldest paused call makes room: its client waited longest.
      const [oldest] = this.calls;
      this.calls.delete(oldest[0]);
      oldest[1].controller.abort(new CancelledError(`more than ${this.max} calls were waiting for their clients`));
    }
    const id = randomUUID();
    this.calls.set(id, run);
    void run.outcome.finally(() => this.calls.delete(id)).catch(() => undefined);
    return id;
  }

  /** The paused call, taken out while a request works on it. */
  take<T>(id: string): DetachedRun<T> | undefined {
    const run = this.calls.get(id) as DetachedRun<T> | undefined;
    this.calls.delete(id);
    return run && !run.settled ? run : undefined;
  }

  get size(): number {
    return this.calls.size;
  }

  close(): void {
    for (const run of this.calls.values()) run.controller.abort(new CancelledError('mcphost is shutting down'));
    this.calls.clear();
  }
}

// A 2026-era request cannot carry a server→client request: when a handler awaits `ctx.elicit` (or a
// mounted 2025-era server asks its client something) during such a request, the call is paused
// here, the request is answered with an input-required result holding the question, and the
// client's retry — whose sealed requestState names the paused call — delivers the answer and picks
// the call up where it waits. A paused call keeps its own deadline (the tool's timeout); one that
// ends while paused is forgotten. Paused calls are bounded per caller (its callerKey) and in all:
// past a caller's bound its own oldest goes, past the host's the oldest of the caller holding the
// most, so one caller's thousand paused calls never drop another's.
import { randomBytes } from 'node:crypto';
import type { InputRequest, ProgressUpdate } from '../backend/types.js';
import { CancelledError } from '../registry/errors.js';
import { InputBroker } from '../registry/asks.js';
import { HeldIds } from './held-ids.js';

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
  private readonly calls = new Map<string, { run: DetachedRun<unknown>; caller: string }>();
  private readonly max: number;
  private readonly perCaller: number;
  /** Mints the ids (they name this replica, so a retry that lands elsewhere is sent back here). */
  readonly ids: HeldIds;

  constructor(options: { max?: number; perCaller?: number; ids?: HeldIds } = {}) {
    this.max = options.max ?? 1000;
    this.perCaller = options.perCaller ?? 100;
    this.ids = options.ids ?? new HeldIds(randomBytes(32));
  }

  /** Keeps `run` until its caller comes back for it (or it ends); returns the id to seal. */
  pause(run: DetachedRun<unknown>, caller = ''): string {
    if (this.countOf(caller) >= this.perCaller)
      this.drop(this.oldestOf(caller), `this client has more than ${this.perCaller} calls waiting for its answers`);
    if (this.calls.size >= this.max) this.drop(this.oldestOf(this.busiest()), `more than ${this.max} calls were waiting for their clients`);
    const id = this.ids.mint(caller);
    this.calls.set(id, { run, caller });
    void run.outcome.finally(() => this.calls.delete(id)).catch(() => undefined);
    return id;
  }

  /** The paused call, taken out while a request works on it. */
  take<T>(id: string): DetachedRun<T> | undefined {
    const run = this.calls.get(id)?.run as DetachedRun<T> | undefined;
    this.calls.delete(id);
    return run && !run.settled ? run : undefined;
  }

  private countOf(caller: string): number {
    let n = 0;
    for (const entry of this.calls.values()) if (entry.caller === caller) n++;
    return n;
  }

  /** The caller with the most paused calls (the first met among equals: the one waiting longest). */
  private busiest(): string {
    const counts = new Map<string, number>();
    for (const { caller } of this.calls.values()) counts.set(caller, (counts.get(caller) ?? 0) + 1);
    let best = '';
    let most = 0;
    for (const [caller, n] of counts) if (n > most) [best, most] = [caller, n];
    return best;
  }

  private oldestOf(caller: string): string | undefined {
    for (const [id, entry] of this.calls) if (entry.caller === caller) return id;
    return undefined;
  }

  /** Its caller waited longest: the call is cancelled, and its retry told it no longer waits. */
  private drop(id: string | undefined, why: string): void {
    const entry = id === undefined ? undefined : this.calls.get(id);
    if (!entry) return;
    this.calls.delete(id!);
    entry.run.controller.abort(new CancelledError(why));
  }

  get size(): number {
    return this.calls.size;
  }

  close(): void {
    for (const { run } of this.calls.values()) run.controller.abort(new CancelledError('mcphost is shutting down'));
    this.calls.clear();
  }
}

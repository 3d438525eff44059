// Who runs next on the PoB workers: start-time fair queueing over clients (keyed by
// ctx.client.id). A call is tagged, when it arrives, with the later of the system's virtual time
// (the tag of the call last given a worker) and the end of its client's previous call; the lowest
// tag runs first. So a client with a backlog has its calls tagged one after another, and a call
// from anyone else is tagged below all but the first of them: it waits for the calculation in
// progress on a worker, never behind the backlog. Among calls with one tag (one round), a call
// for the build a free worker already holds goes first, which saves a load; a call whose build a
// busy worker holds waits for that worker rather than loading the build a second time. Past the
// bounds (per client, all together) a call is refused at once: busy, retry in a moment.
import { ToolError } from '../../src/backend/index.js';

export interface Job {
  /** Whose call: the fairness key. */
  client: string;
  /** The build it works on (routing); undefined runs anywhere. */
  key?: string;
  /** The call changes the build: the worker holds no known build until it ends. */
  changesKey?: boolean;
  /** Only this worker, before anything else (stopping it, for one). */
  slot?: number;
}

interface Waiting {
  job: Job;
  tag: number;
  seq: number;
  grant(slot: number): void;
  fail(error: Error): void;
}

interface Slot {
  busy: boolean;
  /** The build the worker holds (or is loading), for routing. */
  key?: string;
  lastUsed: number;
}

export interface QueueLimits {
  total: number;
  perClient: number;
}

export class FairQueue {
  private readonly slots: Slot[];
  private waiting: Waiting[] = [];
  private readonly finish = new Map<string, number>();
  private readonly perClient = new Map<string, number>();
  private virtual = 0;
  private seq = 0;
  private clock = 0;
  private closedWith?: Error;

  constructor(
    slotCount: number,
    private readonly limits: QueueLimits,
  ) {
    this.slots = Array.from({ length: slotCount }, () => ({ busy: false, lastUsed: 0 }));
  }

  /** Calls waiting for a worker. */
  get queued(): number {
    return this.waiting.length;
  }

  get busy(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  /** Resolves with the worker (slot index) the job may run on; the caller must `release` it. */
  acquire(job: Job, signal?: AbortSignal): Promise<number> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pinned = job.slot !== undefined;
    const mine = this.perClient.get(job.client) ?? 0;
    if (!pinned && mine >= this.limits.perClient)
      return Promise.reject(
        busyError(`${mine} calls of this client are already waiting for a worker (at most ${this.limits.perClient})`, mine),
      );
    if (!pinned && this.waiting.length >= this.limits.total)
      return Promise.reject(
        busyError(`${this.waiting.length} calls are waiting for its ${this.slots.length} workers (at most ${this.limits.total})`, mine),
      );
    const tag = pinned ? -Infinity : Math.max(this.virtual, this.finish.get(job.client) ?? -Infinity);
    if (!pinned) this.finish.set(job.client, tag + 1);
    return new Promise<number>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.drop(entry);
      };
      const entry: Waiting = {
        job,
        tag,
        seq: this.seq++,
        grant: (slot) => {
          done();
          resolve(slot);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = () => entry.fail(signal!.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.perClient.set(job.client, mine + 1);
      this.pump();
    });
  }

  /** The worker is free again, holding `key` (undefined: no known build). */
  release(slot: number, key: string | undefined): void {
    const s = this.slots[slot];
    s.busy = false;
    s.key = key;
    s.lastUsed = ++this.clock;
    this.pump();
  }

  /** Refuses every waiting and later call with `error`. */
  close(error: Error): void {
    this.closedWith = error;
    for (const entry of [...this.waiting]) entry.fail(error);
  }

  private drop(entry: Waiting): void {
    const at = this.waiting.indexOf(entry);
    if (at < 0) return;
    this.waiting.splice(at, 1);
    const left = (this.perClient.get(entry.job.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(entry.job.client, left);
    else this.perClient.delete(entry.job.client);
  }

  private pump(): void {
    for (;;) {
      const choice = this.choose();
      if (!choice) return;
      const { entry, slot } = choice;
      const s = this.slots[slot];
      s.busy = true;
      s.key = entry.job.changesKey ? undefined : entry.job.key;
      s.lastUsed = ++this.clock;
      if (entry.tag > this.virtual) this.virtual = entry.tag;
      this.forgetIdleClients();
      entry.grant(slot);
    }
  }

  /** The lowest (tag, not-already-held, arrival) call that some free worker may take, and that worker. */
  private choose(): { entry: Waiting; slot: number } | undefined {
    const free = this.slots.flatMap((s, i) => (s.busy ? [] : [i]));
    if (free.length === 0) return undefined;
    const demanded = new Set(this.waiting.map((w) => w.job.key).filter((k) => k !== undefined));
    let best: { entry: Waiting; slot: number; rank: [number, number, number] } | undefined;
    for (const entry of this.waiting) {
      const slot = this.slotFor(entry.job, free, demanded);
      if (slot === undefined) continue;
      const held = entry.job.key !== undefined && this.slots[slot].key === entry.job.key ? 0 : 1;
      const rank: [number, number, number] = [entry.tag, held, entry.seq];
      if (!best || lower(rank, best.rank)) best = { entry, slot, rank };
    }
    return best && { entry: best.entry, slot: best.slot };
  }

  private slotFor(job: Job, free: number[], demanded: Set<string>): number | undefined {
    if (job.slot !== undefined) return free.includes(job.slot) ? job.slot : undefined;
    if (job.key !== undefined) {
      const holding = free.find((i) => this.slots[i].key === job.key);
      if (holding !== undefined) return holding;
      // A busy worker holds (or is loading) this build: wait for it.
      if (this.slots.some((s) => s.busy && s.key === job.key)) return undefined;
    }
    // Otherwise a free worker whose build nobody waits for, the least recently used first.
    const order = [...free].sort((a, b) => this.slots[a].lastUsed - this.slots[b].lastUsed);
    return order.find((i) => !demanded.has(this.slots[i].key!)) ?? order[0];
  }

  /** A client whose last call ends at or before the virtual time has no credit left to remember. */
  private forgetIdleClients(): void {
    if (this.finish.size < 1024) return;
    for (const [client, end] of this.finish) if (end <= this.virtual && !this.perClient.has(client)) this.finish.delete(client);
  }
}

function lower(a: [number, number, number], b: [number, number, number]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function busyError(why: string, waiting: number): ToolError {
  return new ToolError(`PoB is busy: ${why}; retry in a moment`, { code: 'BUSY', data: { waiting } });
}

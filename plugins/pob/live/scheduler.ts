// Who runs next on the PoB workers: round-robin over callers (keyed by ctx.client.caller: a named
// client, token or OAuth subject, else the address, over HTTP; the connection over stdio), one call
// per caller per round, so a sender's 2026-era requests, each a client of its own, share one lane.
// A caller with a backlog has one call served per round, so a call from anyone else waits for the
// calculation in progress on a worker and at most one call of each other caller, never behind the
// backlog. Within a round, a call for the build a free worker
// already holds goes first (no load); a call whose build a busy worker holds waits for that worker
// rather than loading the build a second time, and the free worker serves the next round meanwhile.
// Past the bounds (per client, all together) a call is refused at once: busy, retry in a moment.
import { ToolError } from '../../../src/backend/index.js';

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
  seq: number;
  grant(slot: number): void;
  fail(error: Error): void;
}

/** One client's calls, in arrival order, and the round of its next turn. */
interface Line {
  round: number;
  waiting: Waiting[];
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

type Rank = [number, number, number];

export class FairQueue {
  private readonly slots: Slot[];
  private readonly lines = new Map<string, Line>();
  private readonly pinned: Waiting[] = [];
  private round = 0;
  private total = 0;
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
    return this.total;
  }

  get busy(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  /** Resolves with the worker (slot index) the job may run on; the caller must `release` it. */
  acquire(job: Job, signal?: AbortSignal): Promise<number> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pinned = job.slot !== undefined;
    const line = this.lines.get(job.client);
    const mine = line?.waiting.length ?? 0;
    if (!pinned && mine >= this.limits.perClient)
      return Promise.reject(
        busyError(`${mine} calls of this client are already waiting for a worker (at most ${this.limits.perClient})`, mine),
      );
    if (!pinned && this.total >= this.limits.total)
      return Promise.reject(
        busyError(`${this.total} calls are waiting for its ${this.slots.length} workers (at most ${this.limits.total})`, mine),
      );
    return new Promise<number>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        this.drop(entry);
      };
      const entry: Waiting = {
        job,
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
      if (pinned) this.pinned.push(entry);
      else {
        // A client that comes back is due this round, not in a round it missed.
        const own = line ?? { round: this.round, waiting: [] };
        own.round = Math.max(own.round, this.round);
        own.waiting.push(entry);
        this.lines.set(job.client, own);
        this.total++;
      }
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
    for (const entry of [...this.pinned, ...[...this.lines.values()].flatMap((l) => l.waiting)]) entry.fail(error);
  }

  private drop(entry: Waiting): void {
    const pinnedAt = this.pinned.indexOf(entry);
    if (pinnedAt >= 0) return void this.pinned.splice(pinnedAt, 1);
    const line = this.lines.get(entry.job.client);
    const at = line?.waiting.indexOf(entry) ?? -1;
    if (at < 0) return;
    line!.waiting.splice(at, 1);
    this.total--;
  }

  private pump(): void {
    for (;;) {
      const choice = this.choose();
      if (!choice) return;
      const { entry, slot, line } = choice;
      const s = this.slots[slot];
      s.busy = true;
      s.key = entry.job.changesKey ? undefined : entry.job.key;
      s.lastUsed = ++this.clock;
      if (line) line.round = Math.max(line.round, this.round) + 1;
      entry.grant(slot);
    }
  }

  /**
   * The call a free worker takes: a pinned one first; then the lowest (round, not-already-held,
   * arrival), each client offering its oldest call that some free worker may take.
   */
  private choose(): { entry: Waiting; slot: number; line?: Line } | undefined {
    const free = this.slots.flatMap((s, i) => (s.busy ? [] : [i]));
    if (free.length === 0) return undefined;
    for (const entry of this.pinned) if (free.includes(entry.job.slot!)) return { entry, slot: entry.job.slot! };
    this.advanceRound();
    const demanded = new Set([...this.lines.values()].flatMap((l) => l.waiting.map((w) => w.job.key)).filter((k) => k !== undefined));
    let best: { entry: Waiting; slot: number; line: Line; rank: Rank } | undefined;
    for (const line of this.lines.values()) {
      for (const entry of line.waiting) {
        const slot = this.slotFor(entry.job, free, demanded);
        if (slot === undefined) continue;
        const held = entry.job.key !== undefined && this.slots[slot].key === entry.job.key ? 0 : 1;
        const rank: Rank = [line.round, held, entry.seq];
        if (!best || lower(rank, best.rank)) best = { entry, slot, line, rank };
        break;
      }
    }
    return best;
  }

  /** The round moves on once no waiting client is due in it; clients with nothing waiting are forgotten. */
  private advanceRound(): void {
    let next = Infinity;
    for (const [client, line] of this.lines) {
      if (line.waiting.length === 0) {
        if (line.round <= this.round) this.lines.delete(client);
        continue;
      }
      next = Math.min(next, line.round);
    }
    if (next !== Infinity && next > this.round) this.round = next;
  }

  private slotFor(job: Job, free: number[], demanded: Set<string>): number | undefined {
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
}

function lower(a: Rank, b: Rank): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function busyError(why: string, waiting: number): ToolError {
  return new ToolError(`PoB is busy: ${why}; retry in a moment`, { code: 'BUSY', data: { waiting } });
}

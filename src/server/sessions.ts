// The 2025-era HTTP sessions, bounded: a session with no request or stream open for `idleMs` is
// closed, and at most `max` are kept (adding one past that closes the longest idle, or, when none
// is idle, the least recently used). Clients that vanish without DELETE cost nothing for long.
//
// The map is kept in order of last activity (an entry moves to the end when a request starts or
// ends), so the longest idle session is the first idle one met from the front.

export interface SessionPolicy {
  idleMs: number;
  max: number;
  /** The clock (tests inject one). */
  now?: () => number;
}

interface Entry<T> {
  value: T;
  /** Requests (and GET streams) of this session still open. */
  open: number;
  lastActive: number;
}

export type EvictReason = 'idle' | 'capacity';

export class SessionTable<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly now: () => number;

  constructor(
    private readonly policy: SessionPolicy,
    private readonly onEvict: (id: string, value: T, why: EvictReason) => void,
  ) {
    this.now = policy.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The session, unless it is unknown or expired (an expired one is closed now, not at the next sweep). */
  get(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.open === 0 && this.now() - entry.lastActive > this.policy.idleMs) {
      this.evict(id, 'idle');
      return undefined;
    }
    return entry?.value;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  values(): T[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  /** Adds a session, first closing expired ones and, at the cap, the longest idle. */
  add(id: string, value: T): void {
    this.sweep();
    while (this.entries.size >= this.policy.max) {
      const victim = this.firstIdle() ?? this.entries.keys().next().value;
      if (victim === undefined) break;
      this.evict(victim, 'capacity');
    }
    this.entries.set(id, { value, open: 0, lastActive: this.now() });
  }

  /** Forgets a session that closed by itself (DELETE, transport closed). */
  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Marks a request (or stream) of the session as open; the returned function marks it closed. */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (!entry) return () => undefined;
    entry.open++;
    this.touch(id, entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open--;
      if (this.entries.get(id) === entry) this.touch(id, entry);
    };
  }

  /** Closes every session idle for longer than `idleMs`. */
  sweep(): void {
    const cutoff = this.now() - this.policy.idleMs;
    for (const [id, entry] of this.entries) {
      if (entry.open > 0) continue;
      if (entry.lastActive >= cutoff) break; // idle entries further on were active later still
      this.evict(id, 'idle');
    }
  }

  private touch(id: string, entry: Entry<T>): void {
    entry.lastActive = this.now();
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private firstIdle(): string | undefined {
    for (const [id, entry] of this.entries) if (entry.open === 0) return id;
    return undefined;
  }

  private evict(id: string, why: EvictReason): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.onEvict(id, entry.value, why);
  }
}

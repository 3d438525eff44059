// The 2025-era HTTP sessions, bounded: a session with no request or stream open for `idleMs` is
// closed, at most `max` are kept and at most `perOwner` of one caller. A newcomer past a bound
// closes the longest idle session (of its own caller, for the caller's bound); when none is idle it
// is refused (`admit`), so a busy session (a request or stream open) is never closed to make room,
// and one caller's flood only ever closes that caller's sessions. Clients that vanish without
// DELETE cost nothing for long.
//
// The map is kept in order of last activity (an entry moves to the end when a request starts or
// ends), so the longest idle session is the first idle one met from the front.

export interface SessionPolicy {
  idleMs: number;
  max: number;
  /** Sessions one caller (its callerKey) may hold. */
  perOwner?: number;
  /** The clock (tests inject one). */
  now?: () => number;
}

interface Entry<T> {
  value: T;
  owner: string;
  /** Requests (and GET streams) of this session still open. */
  open: number;
  lastActive: number;
}

export type EvictReason = 'idle' | 'capacity' | 'owner';

/** Why a newcomer was refused: every session of its caller, or of the host, is busy. */
export type Refusal = 'owner' | 'capacity';

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

  /**
   * Makes room for a new session of `owner`: closes expired sessions, then at a bound the longest
   * idle one (the owner's own at the owner's bound). Answers why not when only busy sessions are left.
   */
  admit(owner: string): Refusal | undefined {
    this.sweep();
    const perOwner = this.policy.perOwner ?? Number.POSITIVE_INFINITY;
    if (this.countOf(owner) >= perOwner) {
      const victim = this.firstIdle(owner);
      if (victim === undefined) return 'owner';
      this.evict(victim, 'owner');
    }
    while (this.entries.size >= this.policy.max) {
      const victim = this.firstIdle();
      if (victim === undefined) return 'capacity';
      this.evict(victim, 'capacity');
    }
    return undefined;
  }

  /** Adds a session admitted before (newcomers admitted together may still close idle ones here, never busy ones). */
  add(id: string, value: T, owner = ''): void {
    this.admit(owner);
    this.entries.set(id, { value, owner, open: 0, lastActive: this.now() });
  }

  /** Sessions `owner` holds. */
  countOf(owner: string): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.owner === owner) n++;
    return n;
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

  private firstIdle(owner?: string): string | undefined {
    for (const [id, entry] of this.entries) if (entry.open === 0 && (owner === undefined || entry.owner === owner)) return id;
    return undefined;
  }

  private evict(id: string, why: EvictReason): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.onEvict(id, entry.value, why);
  }
}

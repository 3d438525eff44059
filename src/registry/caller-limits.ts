// A named client's limits (`http.clients.<name>.limits`): a token bucket and a cap on calls running
// at once, for the client as a whole and for the tools a glob names. Past one, a call is refused at
// once — never queued — with the limit and when to retry, so an agent can wait and the others are
// served meanwhile. Admission is all or nothing: a refused call takes no token from any bucket.
import { globMatcher } from '../kit/glob.js';

/** JSON-RPC error code of a call refused by a limit (the one toolhive and others answer with). */
export const LIMIT_ERROR_CODE = -32029;

export interface LimitSettings {
  rate?: { perMinute: number; burst?: number };
  concurrency?: number;
}

export interface LimitRules extends LimitSettings {
  tools: Readonly<Record<string, Readonly<LimitSettings>>>;
}

export interface LimitRefusal {
  /** The setting that refused it, by its key path, with its value. */
  limit: string;
  /** Whole seconds to wait before a retry can pass (at least 1). */
  retryAfter: number;
  message: string;
}

class Pool {
  private tokens: number;
  private at: number;
  private running = 0;
  private readonly capacity: number;
  private readonly perMs: number;

  constructor(
    readonly key: string,
    private readonly settings: LimitSettings,
    private readonly now: () => number,
  ) {
    this.capacity = settings.rate ? (settings.rate.burst ?? Math.max(1, Math.ceil(settings.rate.perMinute))) : 0;
    this.perMs = settings.rate ? settings.rate.perMinute / 60_000 : 0;
    this.tokens = this.capacity;
    this.at = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + (t - this.at) * this.perMs);
    this.at = t;
  }

  /** Why a call cannot start now, or undefined when it can. */
  check(): Omit<LimitRefusal, 'message'> | undefined {
    const { concurrency, rate } = this.settings;
    if (concurrency !== undefined && this.running >= concurrency) {
      // When a running call ends is not known: a second is the shortest wait worth advising.
      return { limit: `${this.key}.concurrency (${concurrency} at once)`, retryAfter: 1 };
    }
    if (rate) {
      this.refill();
      if (this.tokens < 1) {
        const retryAfter = Math.max(1, Math.ceil((1 - this.tokens) / this.perMs / 1000));
        return { limit: `${this.key}.rate (${rate.perMinute}/min, burst ${this.capacity})`, retryAfter };
      }
    }
    return undefined;
  }

  take(): () => void {
    if (this.settings.rate) this.tokens -= 1;
    this.running++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
    };
  }
}

export class CallerLimits {
  private readonly whole?: Pool;
  private readonly perTool: Array<{ matches: (tool: string) => boolean; pools: Map<string, Pool>; key: string; settings: LimitSettings }>;

  constructor(
    private readonly client: string,
    rules: Readonly<LimitRules>,
    private readonly now: () => number = Date.now,
  ) {
    const key = `http.clients.${client}.limits`;
    if (rules.rate || rules.concurrency !== undefined) this.whole = new Pool(key, rules, now);
    this.perTool = Object.entries(rules.tools).map(([pattern, settings]) => ({
      matches: globMatcher([pattern]),
      pools: new Map(),
      key: `${key}.tools.${pattern}`,
      settings,
    }));
  }

  /** Whether any limit applies at all (a client without limits costs nothing per call). */
  get any(): boolean {
    return this.whole !== undefined || this.perTool.length > 0;
  }

  private pools(tool: string): Pool[] {
    const pools = this.whole ? [this.whole] : [];
    for (const entry of this.perTool) {
      if (!entry.matches(tool)) continue;
      // Each tool a glob names has its own bucket and cap: `pob_*: {concurrency: 1}` is one of each PoB tool at once.
      let pool = entry.pools.get(tool);
      if (!pool) entry.pools.set(tool, (pool = new Pool(entry.key, entry.settings, this.now)));
      pools.push(pool);
    }
    return pools;
  }

  /** Why a call of `tool` would be refused now (nothing taken), or undefined. */
  peek(tool: string): LimitRefusal | undefined {
    for (const pool of this.pools(tool)) {
      const refused = pool.check();
      if (refused) return this.refusal(tool, refused);
    }
    return undefined;
  }

  /** Admits a call of `tool` (its release ends it), or answers why not. */
  admit(tool: string): { release: () => void } | { refused: LimitRefusal } {
    const pools = this.pools(tool);
    for (const pool of pools) {
      const refused = pool.check();
      if (refused) return { refused: this.refusal(tool, refused) };
    }
    const releases = pools.map((p) => p.take());
    return { release: () => releases.forEach((r) => r()) };
  }

  private refusal(tool: string, refused: Omit<LimitRefusal, 'message'>): LimitRefusal {
    return {
      ...refused,
      message: `client ${this.client} is past ${refused.limit} for ${tool}: retry after ${refused.retryAfter} s`,
    };
  }
}

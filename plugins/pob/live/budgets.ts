// How long a PoB worker may take to start, to load a build, and to answer anything else. Each
// budget starts at its setting; when a worker is stopped for running past one, the next attempt of
// that kind gets twice as long (up to 16 times the setting, or a minute when that is more, so a
// build that really hangs PoB costs a bounded time per attempt). On a machine too busy for the settings, a retry therefore succeeds
// instead of being killed at the same point every time.
import type { Logger } from '../../../src/backend/index.js';

export type BudgetKind = 'start' | 'load' | 'request';

const SETTING: Record<BudgetKind, string> = {
  start: 'plugins.pob.startTimeoutMs (POB_START_TIMEOUT_MS)',
  load: 'plugins.pob.loadTimeoutMs (POB_LOAD_TIMEOUT_MS)',
  request: 'plugins.pob.timeoutMs (POB_TIMEOUT_MS)',
};

const MAX_FACTOR = 16;
/** The cap is never below this, however small the setting. */
const MIN_CAP_MS = 60_000;

export class Budgets {
  private readonly base: Record<BudgetKind, number>;
  private readonly now: Record<BudgetKind, number>;

  constructor(
    settings: { startTimeoutMs: number; loadTimeoutMs: number; timeoutMs: number },
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {
    this.base = { start: settings.startTimeoutMs, load: settings.loadTimeoutMs, request: settings.timeoutMs };
    this.now = { ...this.base };
  }

  get(kind: BudgetKind): number {
    return this.now[kind];
  }

  /** The budget that ran out, and what the next attempt gets (the same once at the cap). */
  raise(kind: BudgetKind, spent: number): { spent: number; next: number } {
    const cap = Math.max(this.base[kind] * MAX_FACTOR, MIN_CAP_MS);
    const next = Math.min(Math.max(this.now[kind], spent * 2), cap);
    if (next > this.now[kind]) this.logger?.warn(`pob: ${kind} budget raised from ${this.now[kind]} to ${next} ms (this machine is slow)`);
    this.now[kind] = next;
    return { spent, next };
  }

  /** One sentence for an error message: what ran out and what the retry gets. */
  describe(kind: BudgetKind, spent: number, next: number): string {
    if (next > spent) return `the next ${kind} gets ${next} ms (a busy machine is slower; the setting is ${SETTING[kind]})`;
    return `it had ${next} ms already, the most it gets: raise ${SETTING[kind]} if this machine is that slow`;
  }

  snapshot(): Record<BudgetKind, number> {
    return { ...this.now };
  }
}

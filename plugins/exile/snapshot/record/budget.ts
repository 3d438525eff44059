// What one recording may spend: explore calls, recorded objects and seconds. The defaults record a
// 300-entity HUD whole in about 10 s and a 5,000-entity one whole in about 2 minutes (some 70,000
// calls), and stop anything larger within 4 minutes (bench/exile-record.bench.js).
// Progress is the share of the budget spent, so its total never moves: a recording that completes
// early jumps to 100 %, one that is cut ends there too, with what was cut in the snapshot's header.

export const DEFAULT_MAX_CALLS = 200_000;
export const DEFAULT_MAX_OBJECTS = 500_000;
export const DEFAULT_MAX_SECONDS = 240;

export type CutReason = 'maxCalls' | 'maxObjects' | 'maxSeconds';

export interface BudgetLimits {
  maxCalls?: number;
  maxObjects?: number;
  maxSeconds?: number;
}

export class RecordBudget {
  readonly maxCalls: number;
  readonly maxObjects: number;
  readonly maxSeconds: number;
  calls = 0;
  objects = 0;
  private readonly started = performance.now();
  private timeUp = false;
  private shown = 0;

  constructor(limits: BudgetLimits = {}) {
    this.maxCalls = limits.maxCalls ?? DEFAULT_MAX_CALLS;
    this.maxObjects = limits.maxObjects ?? DEFAULT_MAX_OBJECTS;
    this.maxSeconds = limits.maxSeconds ?? DEFAULT_MAX_SECONDS;
  }

  get seconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  /** Called by the timer that ends the recording at maxSeconds. */
  expire(): void {
    this.timeUp = true;
  }

  /** Why nothing more may be explored, if so. */
  spent(): CutReason | undefined {
    if (this.timeUp || this.seconds >= this.maxSeconds) return 'maxSeconds';
    if (this.calls >= this.maxCalls) return 'maxCalls';
    if (this.objects >= this.maxObjects) return 'maxObjects';
    return undefined;
  }

  /** Percent of the budget spent (the largest of the three shares), never going back. */
  percent(): number {
    const share = Math.max(this.calls / this.maxCalls, this.objects / this.maxObjects, this.seconds / this.maxSeconds);
    this.shown = Math.max(this.shown, Math.min(99, Math.floor(share * 100)));
    return this.shown;
  }

  header(): Record<string, unknown> {
    return {
      budget: { maxCalls: this.maxCalls, maxObjects: this.maxObjects, maxSeconds: this.maxSeconds },
      used: { calls: this.calls, objects: this.objects, seconds: Math.round(this.seconds * 10) / 10 },
    };
  }
}

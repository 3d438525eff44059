// The per-call limits: a time budget checked while iterating (so no call can hang the host) and
// a cap on how many values one answer may carry.
import { ToolError } from '../../../../src/backend/index.js';

export const DEFAULT_TIME_BUDGET_MS = 2000;
/** Values (JSON nodes) one answer may carry before it is refused as too large. */
export const MAX_RESULT_VALUES = 200_000;

export class Budget {
  private ticks = 0;
  private readonly deadline: number;

  constructor(
    readonly ms: number = DEFAULT_TIME_BUDGET_MS,
    private readonly signal?: AbortSignal,
  ) {
    this.deadline = performance.now() + ms;
  }

  /** Call once per unit of work; the clock is read every 256 ticks. */
  tick(): void {
    if (++this.ticks >= 256) {
      this.ticks = 0;
      this.check();
    }
  }

  check(): void {
    if (this.signal?.aborted) {
      throw this.signal.reason instanceof Error
        ? this.signal.reason
        : new ToolError(`cancelled: ${String(this.signal.reason)}`, { code: 'CANCELLED' });
    }
    if (performance.now() > this.deadline) {
      throw new ToolError(
        `time budget of ${this.ms} ms exceeded: narrow the call (a smaller from, a where clause, take, or a lower depth)`,
        {
          code: 'TIME_BUDGET',
          data: { budgetMs: this.ms },
        },
      );
    }
  }
}

/** Counts the values written into one answer. */
export class OutputCap {
  private count = 0;
  constructor(readonly max: number = MAX_RESULT_VALUES) {}

  add(): void {
    if (++this.count > this.max) {
      throw new ToolError(`answer too large: more than ${this.max} values; lower depth or limit, or select fewer members`, {
        code: 'LIMIT_EXCEEDED',
        data: { maxValues: this.max },
      });
    }
  }
}

// The per-call limits: a time budget checked while iterating (so no call can hang the host), caps on
// what one call may build (a string, and all strings and collection items together: a chain of
// Replace calls would otherwise grow 10× per link), and a cap on how much one answer may carry.
import { ToolError } from '../../../../../src/backend/index.js';

export const DEFAULT_TIME_BUDGET_MS = 2000;
/** Values (JSON nodes) one answer may carry before it is refused as too large. */
export const MAX_RESULT_VALUES = 200_000;
/** Characters of text one answer may carry. */
const MAX_RESULT_CHARS = 8 * 1024 * 1024;
/** Characters of one string an expression builds (Replace, +, ToUpper…). */
const MAX_STRING_CHARS = 1024 * 1024;
/** Characters and collection items one call may build in all. */
const MAX_CALL_ALLOCATION = 16 * 1024 * 1024;

const fmt = (n: number) => n.toLocaleString('en-US');

function tooLarge(message: string, data: Record<string, unknown>): ToolError {
  return new ToolError(message, { code: 'LIMIT_EXCEEDED', data });
}

export class Budget {
  private ticks = 0;
  private built = 0;
  private readonly deadline: number;

  constructor(
    readonly ms: number = DEFAULT_TIME_BUDGET_MS,
    private readonly signal?: AbortSignal,
    private readonly cancelled: () => boolean = () => false,
  ) {
    this.deadline = performance.now() + ms;
  }

  /** Before (or right after) `what` builds a string of `length` characters. */
  text(length: number, what: string): void {
    if (length > MAX_STRING_CHARS) {
      throw tooLarge(`too large: ${what} would make a string of ${fmt(length)} characters; the limit is ${fmt(MAX_STRING_CHARS)}`, {
        maxStringChars: MAX_STRING_CHARS,
      });
    }
    this.build(length, what);
  }

  /** `what` builds a collection of `n` items. */
  items(n: number, what: string): void {
    this.build(n, what);
  }

  private build(n: number, what: string): void {
    this.built += n;
    if (this.built > MAX_CALL_ALLOCATION) {
      throw tooLarge(
        `too large: the expression built more than ${fmt(MAX_CALL_ALLOCATION)} characters and collection items in all (the last by ${what}); narrow it`,
        { maxBuilt: MAX_CALL_ALLOCATION },
      );
    }
    this.tick();
  }

  /** Call once per unit of work; the clock is read every 256 ticks. */
  tick(): void {
    if (++this.ticks >= 256) {
      this.ticks = 0;
      this.check();
    }
  }

  check(): void {
    if (this.cancelled()) throw new ToolError('cancelled', { code: 'CANCELLED' });
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

/** Counts the values, and the characters of their text, written into one answer. */
export class OutputCap {
  private count = 0;
  private chars = 0;
  constructor(
    readonly max: number = MAX_RESULT_VALUES,
    readonly maxChars: number = MAX_RESULT_CHARS,
  ) {}

  add(text?: string): void {
    if (++this.count > this.max) {
      throw tooLarge(`answer too large: more than ${fmt(this.max)} values; lower depth or limit, or select fewer members`, {
        maxValues: this.max,
      });
    }
    if (text !== undefined && (this.chars += text.length) > this.maxChars) {
      throw tooLarge(
        `answer too large: more than ${fmt(this.maxChars)} characters of text; lower depth or limit, or select fewer members`,
        {
          maxChars: this.maxChars,
        },
      );
    }
  }
}

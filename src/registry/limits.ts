// Bounds on what one request may cost the host, whatever it holds: timeouts clamped to what
// setTimeout can wait, arguments refused by size before zod walks them, answers and error texts
// measured and capped. Every walk here is iterative and stops at its bound.

/** setTimeout's largest delay (2^31 − 1 ms, about 24.8 days); a larger one fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** A timeout as setTimeout can honour it: at most MAX_TIMEOUT_MS. */
export function clampTimeout(ms: number): number {
  return Math.min(ms, MAX_TIMEOUT_MS);
}

export interface Limits {
  /** Largest tool result or resource read, in UTF-8 bytes of its text and data. */
  resultBytes: number;
  /** What the results of finished tasks may hold together (`tasks.resultBytes`). */
  taskResultBytes: number;
}

/**
 * 8 MiB: a model cannot use more in one answer (a 1M-token context holds about 4 MB of text), the
 * largest legitimate built-in answer (an imhex hexdump of its 1 MiB maxBytes, ~5 MB) fits, and it
 * stays under the 16 MiB line the stdio reader accepts.
 */
export const DEFAULT_LIMITS: Limits = { resultBytes: 8 * 1024 * 1024, taskResultBytes: 128 * 1024 * 1024 };

/** Values (keys, elements, scalars) an argument object may hold; a passive tree is ~3,000 node ids. */
const MAX_ARGUMENT_VALUES = 100_000;
/** Nesting an argument object may have; tool schemas are a few levels deep. */
const MAX_ARGUMENT_DEPTH = 64;

/** Lines an error lists before it counts the rest. */
const MAX_ERROR_LINES = 20;
/** Characters of one error message (or one line of it). */
export const MAX_ERROR_CHARS = 16 * 1024;

/** Why `value` is too large to check, or undefined when it is within the argument bounds. */
export function argumentsTooLarge(value: unknown): string | undefined {
  return tooManyValues(value, ['the arguments hold', 'the arguments nest', 'them'], MAX_ARGUMENT_VALUES, MAX_ARGUMENT_DEPTH);
}

/**
 * The same bound for a whole JSON-RPC message, checked where it is read, before the SDK validates
 * it (zod walking 300,000 keys took seconds): a little looser, so that what passes the argument
 * check always passes this one.
 */
export function messageTooLarge(value: unknown): string | undefined {
  return tooManyValues(value, ['the message holds', 'the message nests', 'it'], MAX_ARGUMENT_VALUES + 1_000, MAX_ARGUMENT_DEPTH + 8);
}

function tooManyValues(
  value: unknown,
  [holds, nests, them]: [string, string, string],
  maxValues: number,
  maxDepth: number,
): string | undefined {
  // Formatted only when needed: toLocaleString costs more than walking a small request.
  const tooMany = () => `${holds} more than ${maxValues.toLocaleString('en')} values (keys and elements); send fewer`;
  let values = 1;
  // Two stacks rather than one of [item, depth] pairs: no allocation per value walked.
  const items: unknown[] = [value];
  const depths: number[] = [0];
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxDepth) return `${nests} deeper than ${maxDepth} levels; flatten ${them}`;
    if (Array.isArray(item)) {
      values += item.length;
      if (values > maxValues) return tooMany();
      for (const child of item) {
        items.push(child);
        depths.push(depth + 1);
      }
    } else {
      for (const key in item) {
        if (++values > maxValues) return tooMany();
        items.push((item as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

/**
 * UTF-8 bytes of the strings in `value` plus a few bytes per other value, key and separator: close
 * to its JSON size, without building the JSON. Stops counting once past `stopAbove` (`complete`
 * then says whether anything was left uncounted).
 */
export function measure(value: unknown, stopAbove = Number.POSITIVE_INFINITY): { bytes: number; complete: boolean; depth: number } {
  let bytes = 0;
  let deepest = 0;
  const items: unknown[] = [value];
  const depths: number[] = [0];
  while (items.length > 0 && bytes <= stopAbove) {
    const item = items.pop();
    const depth = depths.pop()!;
    if (typeof item === 'string') bytes += Buffer.byteLength(item, 'utf8') + 2;
    else if (item === null || typeof item !== 'object') bytes += 4;
    else {
      if (depth > deepest) deepest = depth;
      if (Array.isArray(item)) {
        bytes += 2 + item.length;
        for (const child of item) {
          items.push(child);
          depths.push(depth + 1);
        }
      } else {
        bytes += 2;
        for (const key in item) {
          bytes += Buffer.byteLength(key, 'utf8') + 4;
          items.push((item as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { bytes, complete: items.length === 0, depth: deepest };
}

/**
 * Nesting a result may have. Turning a value into JSON recurses once per level, and a mounted
 * server's answer 100,000 levels deep overflowed the stack on its way to the client, so the call
 * went unanswered; no real answer comes near this.
 */
export const MAX_RESULT_DEPTH = 512;

/** `text`, cut to `max` characters with a note of how much was left out. */
export function capText(text: string, max = MAX_ERROR_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${(text.length - max).toLocaleString('en')} more characters)`;
}

/** The first `max` items, and how many were left out. */
export function firstOf<T>(items: readonly T[], max = MAX_ERROR_LINES): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

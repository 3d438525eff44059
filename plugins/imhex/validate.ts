// Range checks shared by both providers. The zod schemas only check types (so a negative offset
// reaches the handler and becomes the protocol's -32602, naming the field).
import { invalidParams } from './errors.js';

export function checkOffset(field: string, value: number): number {
  if (value < 0) throw invalidParams(field, `must be 0 or more, got ${value}`);
  return value;
}

/** A byte count between 0 and `limit` (plugins.imhex.maxBytes, or hexdump's own limit). */
export function checkCount(field: string, value: number, limit: number, how = 'read in parts, or raise plugins.imhex.maxBytes'): number {
  if (value < 0) throw invalidParams(field, `must be 0 or more, got ${value}`);
  if (value > limit) throw invalidParams(field, `${value} is over the limit of ${limit} bytes per call: ${how}`, { limit });
  return value;
}

function checkPositive(field: string, value: number): number {
  if (value < 1) throw invalidParams(field, `must be 1 or more, got ${value}`);
  return value;
}

/** Checks `start_offset`/`end_offset` of a search and returns the range (end undefined = end of data). */
export function checkRange(start: number | undefined, end: number | undefined): { start: number; end?: number } {
  const s = checkOffset('start_offset', start ?? 0);
  if (end === undefined) return { start: s };
  checkOffset('end_offset', end);
  if (end < s) throw invalidParams('end_offset', `${end} is before start_offset ${s}`);
  return { start: s, end };
}

/** `max_results`, or its deprecated name `maxResults`: 1 … MAX_RESULTS_LIMIT. */
export function checkMaxResults(current: number | undefined, deprecated: number | undefined, fallback: number, limit: number): number {
  if (current !== undefined && deprecated !== undefined && current !== deprecated) {
    throw invalidParams(
      'maxResults',
      `is the deprecated name of max_results and disagrees with it (${deprecated} vs ${current}): give only max_results`,
    );
  }
  const field = current === undefined && deprecated !== undefined ? 'maxResults' : 'max_results';
  const value = current ?? deprecated ?? fallback;
  checkPositive(field, value);
  if (value > limit) {
    throw invalidParams(
      field,
      `${value} is over the limit of ${limit} matches per call: narrow the range (start_offset/end_offset) and search again from after the last offset found`,
      { limit },
    );
  }
  return value;
}

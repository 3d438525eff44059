// Searches a byte range for a pattern without loading it whole, on the calling thread: the range
// is read in chunks that overlap by pattern length - 1, so a match that straddles two chunks is
// found once, and the next chunk is read while the current one is searched. Used for small
// ranges of a local file and for ImHex's data read through its MCP server (large local ranges
// go to search-pool.ts). How a chunk is scanned is scan.ts's plan.
import type { Pattern } from '../hex.js';
import { planScan, sampleFrequencies, scan, type ScanPlan } from '../scan.js';
import { readBuffer } from './read-buffer.js';

/** Reads up to `length` bytes at `position` into `buffer` (from index 0); returns the count read. */
export type ReadAt = (buffer: Buffer, length: number, position: number) => Promise<number>;

interface SearchProgress {
  done: number;
  total: number;
}

export interface ChunkedSearchOptions {
  /** First offset where a match may start. */
  start: number;
  /** Matches must start before this offset (exclusive); they may run past it. */
  end: number;
  /** Size of the data: no byte at or after it is read. */
  size: number;
  maxResults: number;
  chunkBytes: number;
  signal?: AbortSignal;
  /** The scan plan; by default planned from the pattern and a sample of the first chunk. */
  plan?: ScanPlan;
  /** Called after each chunk once at least `progressEvery` bytes were searched since the last call. */
  onProgress?(p: SearchProgress): void;
  progressEvery?: number;
}

export interface ChunkedSearchResult {
  offsets: number[];
  truncated: boolean;
  bytesSearched: number;
}

export async function chunkedSearch(read: ReadAt, pattern: Pattern, o: ChunkedSearchOptions): Promise<ChunkedSearchResult> {
  const L = pattern.bytes.length;
  const lastStart = Math.min(o.end, o.size - L + 1); // exclusive bound for match starts
  const offsets: number[] = [];
  if (L === 0 || lastStart <= o.start) return { offsets, truncated: false, bytesSearched: 0 };
  const total = lastStart - o.start;
  const chunk = Math.max(1, Math.min(o.chunkBytes, total));
  const span = chunk + L - 1;
  const buffers = [readBuffer(span), readBuffer(span)];
  let plan = o.plan;
  const wanted = o.maxResults + 1; // one more than allowed tells us whether to say `truncated`
  const readChunk = (i: number, pos: number) => read(buffers[i & 1], Math.min(span, o.size - pos), pos);

  let pending: Promise<number> | undefined = readChunk(0, o.start);
  let reported = 0;
  let done = 0;
  let i = 0;
  try {
    for (let pos = o.start; pos < lastStart; pos += chunk, i++) {
      o.signal?.throwIfAborted();
      const got = await pending!;
      const next = pos + chunk;
      pending = next < lastStart ? readChunk(i + 1, next) : undefined;
      const view = buffers[i & 1].subarray(0, got);
      plan ??= planScan(pattern, sampleFrequencies(view.subarray(0, 64 * 1024)));
      const limit = Math.min(chunk, lastStart - pos, got - L + 1); // starts searched in this chunk
      if (limit > 0) scan(view, limit, plan, (at) => offsets.push(pos + at) < wanted);
      done = Math.min(next, lastStart) - o.start;
      if (offsets.length >= wanted) break;
      if (o.onProgress && done - reported >= (o.progressEvery ?? 0) && done < total) {
        reported = done;
        o.onProgress({ done, total });
      }
      if (got < Math.min(span, o.size - pos)) break; // the file shrank under us
    }
  } finally {
    pending?.catch(() => undefined);
  }
  const truncated = offsets.length > o.maxResults;
  if (truncated) offsets.length = o.maxResults;
  return { offsets, truncated, bytesSearched: done };
}

// Searches a byte range of a file for a pattern without loading the file: the range is read in
// chunks that overlap by pattern length - 1, so a match that straddles two chunks is found once.
// The next chunk is read while the current one is searched. A plain pattern uses Buffer.indexOf
// (memchr-accelerated); a pattern with wildcards looks for its longest literal run first.
import { anchorOf, matchesAt, type Pattern } from '../hex.js';

/** Reads up to `length` bytes at `position` into `buffer` (from index 0); returns the count read. */
export type ReadAt = (buffer: Buffer, length: number, position: number) => Promise<number>;

export interface SearchProgress {
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
  const buffers = [Buffer.allocUnsafe(span), Buffer.allocUnsafe(span)];
  const find = finder(pattern);
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
      const limit = Math.min(chunk, lastStart - pos, got - L + 1); // starts searched in this chunk
      if (limit > 0) find(buffers[i & 1].subarray(0, got), limit, (at) => offsets.push(pos + at) < wanted);
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

/** `find(view, limit, emit)` reports every match starting before `limit`; stops when emit returns false. */
type Finder = (view: Buffer, limit: number, emit: (at: number) => boolean) => void;

function finder(pattern: Pattern): Finder {
  const anchor = anchorOf(pattern);
  if (anchor.length === 0) {
    return (_view, limit, emit) => {
      for (let at = 0; at < limit && emit(at); at++);
    };
  }
  const needle = pattern.bytes.subarray(anchor.at, anchor.at + anchor.length);
  const exact = pattern.wildcards === 0;
  return (view, limit, emit) => {
    let j = view.indexOf(needle, anchor.at);
    while (j !== -1) {
      const at = j - anchor.at;
      if (at >= limit) return;
      if ((exact || matchesAt(view, at, pattern)) && !emit(at)) return;
      j = view.indexOf(needle, j + 1);
    }
  };
}

// The embedded provider: the six commands on a local file through positional reads and writes on
// one handle, checked against the path before each use (open-file.ts). Nothing loads the whole
// file; offsets go up to Number.MAX_SAFE_INTEGER. Opened read-only unless `writable`; writes never
// grow the file unless `allowGrow`, are checked before any byte is written, and are all or
// nothing (write.ts). Large searches run on worker threads (search-pool.ts), small ones here.
import path from 'node:path';
import type { HealthReport, Logger } from '../../../src/backend/index.js';
import { NotRegularFileError, openRegularFile } from '../../../src/kit/index.js';
import { invalidParams, notWritable } from '../errors.js';
import type { FileMap, FileMapRequest } from '../file-map.js';
import { addressString, selectionOf, type Selection } from '../protocol.js';
import type { ImHexProvider, ProviderCall, SearchRequest } from '../provider.js';
import { notRegular, openHint, readFully, ServedFile } from './open-file.js';
import type { MapPool } from './map-pool.js';
import type { SearchPool } from './search-pool.js';

export interface FileProviderOptions {
  file: string;
  writable: boolean;
  allowGrow: boolean;
  /** Bytes read per step when searching. */
  chunkBytes: number;
  /** Worker threads for large searches (0: search on the calling thread only). */
  searchThreads?: number;
  /** Searches over at least this many bytes report progress. */
  progressMinBytes?: number;
  logger?: Logger;
}

/** Ranges at least this large go to the worker threads; below it, starting them costs more than it saves. */
const POOL_MIN_BYTES = 8 * 1024 * 1024;
/** What one worker takes at a time: small enough that two cores share a range evenly. */
const TASK_BYTES = 16 * 1024 * 1024;
const SAMPLE_BYTES = 64 * 1024;

/** A client's selection in one file; ImHex keeps one per window, mcphost one per client. */
interface SelectionHolder {
  current?: { start: number; size: number };
}

/** Where a call's selection lives: with its client, or (no client: a direct caller) with this provider. */
function holder(call: ProviderCall | undefined, file: string, own: SelectionHolder): SelectionHolder {
  return call?.client ? call.client.state<SelectionHolder>(`selection\u0000${file}`, () => ({})) : own;
}

// What only writes, searches and maps use (and their worker pools) is imported when one runs: a
// one-shot read loads none of it.
export class FileProvider implements ImHexProvider {
  readonly kind = 'file';
  readonly label: string;
  private readonly o: FileProviderOptions;
  private readonly key: string;
  private readonly file: ServedFile;
  private pool?: SearchPool;
  private mapPool?: MapPool;
  private readonly unclaimed: SelectionHolder = {};
  /** Writes run one at a time, so restoring a failed write never undoes another. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(options: FileProviderOptions) {
    this.o = options;
    this.key = path.resolve(options.file);
    this.file = new ServedFile(this.key, options.writable, options.logger);
    this.label = `file ${this.key} (${options.writable ? `writable${options.allowGrow ? ', may grow' : ''}` : 'read-only'})`;
  }

  /** Opens the file (a wrong path is reported here, before the first tool runs). */
  async open(): Promise<void> {
    await this.file.handle();
  }

  async getSelection(call?: ProviderCall): Promise<Selection> {
    await this.file.use(async () => undefined);
    const s = holder(call, this.key, this.unclaimed).current;
    return selectionOf(s?.start ?? null, s?.size ?? 0);
  }

  async setSelection(start: number, size: number, call?: ProviderCall) {
    const total = await this.file.use(async ({ fh }) => (await fh.stat()).size);
    if (start + size > total) {
      throw invalidParams(
        size === 0 ? 'start_offset' : 'size',
        `the selection ${start}+${size} runs past the end of the data (${total} bytes)`,
        { dataSize: total },
      );
    }
    holder(call, this.key, this.unclaimed).current = size === 0 ? undefined : { start, size };
    return { status: 'success' as const, start_offset: start, size };
  }

  readBytes(offset: number, count: number) {
    return this.file.use(async ({ fh }) => {
      const buffer = Buffer.alloc(count);
      const got = count === 0 ? 0 : await readFully(fh, buffer, count, offset);
      return { offset, count, bytes_read: got, hex_data: buffer.toString('hex', 0, got) };
    });
  }

  async writeBytes(offset: number, data: Buffer, call: ProviderCall) {
    if (!this.o.writable) throw notWritable(`${this.key} is open read-only; set plugins.imhex.writable: true to allow write_bytes`);
    const run = this.writes.then(() =>
      this.file.use(async ({ fh }) => {
        const total = (await fh.stat()).size;
        const end = offset + data.length;
        if (offset > total || (end > total && !this.o.allowGrow)) {
          const how = this.o.allowGrow
            ? 'a write may extend the file but must start at or before its end'
            : 'writes never grow the file unless plugins.imhex.allowGrow is true';
          throw invalidParams(
            'offset',
            `writing ${data.length} bytes at ${offset} runs past the end of the data (${total} bytes): ${how}`,
            {
              dataSize: total,
            },
          );
        }
        if (end > Number.MAX_SAFE_INTEGER) throw invalidParams('offset', 'the write would end past Number.MAX_SAFE_INTEGER');
        call.signal.throwIfAborted();
        const { writeAllOrNothing } = await import('./write.js');
        const { bytes_written } = await writeAllOrNothing(fh, this.key, offset, data, total);
        return { offset, bytes_written, status: 'success' as const };
      }),
    );
    this.writes = run.catch(() => undefined);
    return run;
  }

  search(request: SearchRequest, call: ProviderCall) {
    return this.file.use(async ({ fh, dev, ino }) => {
      const size = (await fh.stat()).size;
      const end = Math.min(request.end_offset ?? size, size);
      const L = request.pattern.bytes.length;
      const lastStart = Math.min(end, size - L + 1);
      const total = Math.max(0, lastStart - request.start_offset);
      const report = call.progress && total >= (this.o.progressMinBytes ?? 64 * 1024 * 1024);
      const every = Math.max(this.o.chunkBytes, Math.floor(total / 100));
      let reported = 0;
      const onProgress = report
        ? (done: number, all: number) => {
            if (done - reported < every || done >= all) return;
            reported = done;
            call.progress!({ progress: done, total: all, message: `searched ${done} of ${all} bytes` });
          }
        : undefined;
      const threads = this.o.searchThreads ?? 0;
      if (threads === 0 || total < POOL_MIN_BYTES) {
        const { chunkedSearch } = await import('./search.js');
        const r = await chunkedSearch((buf, len, pos) => readFully(fh, buf, len, pos), request.pattern, {
          start: request.start_offset,
          end,
          size,
          maxResults: request.maxResults,
          chunkBytes: this.o.chunkBytes,
          signal: call.signal,
          onProgress: onProgress && (({ done, total: all }) => onProgress(done, all)),
        });
        return r.truncated ? { offsets: r.offsets, truncated: true as const } : { offsets: r.offsets };
      }
      // The plan follows the data: a sample from the start of the range says which bytes are rare.
      const sample = Buffer.alloc(SAMPLE_BYTES);
      const got = await readFully(fh, sample, SAMPLE_BYTES, request.start_offset);
      const [{ planScan, sampleFrequencies }, { SearchPool }] = await Promise.all([import('../scan.js'), import('./search-pool.js')]);
      this.pool ??= new SearchPool(threads);
      const r = await this.pool.search({
        file: this.key,
        dev,
        ino,
        plan: planScan(request.pattern, sampleFrequencies(sample.subarray(0, got))),
        start: request.start_offset,
        lastStart,
        size,
        wanted: request.maxResults + 1,
        taskBytes: Math.max(TASK_BYTES, this.o.chunkBytes),
        bufferBytes: this.o.chunkBytes,
        signal: call.signal,
        onProgress,
      });
      const truncated = r.offsets.length > request.maxResults;
      if (truncated) r.offsets.length = request.maxResults;
      return truncated ? { offsets: r.offsets, truncated: true as const } : { offsets: r.offsets };
    });
  }

  fileMap(request: FileMapRequest, call: ProviderCall): Promise<FileMap> {
    return this.file.use(async ({ fh, dev, ino }) => {
      const size = (await fh.stat()).size;
      const { buildMap, planMap } = await import('../file-map.js');
      const plan = planMap(request, size);
      const total = plan.end - plan.start;
      const report = call.progress && total >= (this.o.progressMinBytes ?? 64 * 1024 * 1024);
      let reported = 0;
      const onProgress = report
        ? (done: number, all: number) => {
            if (done - reported < all / 100 || done >= all) return;
            reported = done;
            call.progress!({ progress: done, total: all, message: `mapped ${done} of ${all} bytes` });
          }
        : undefined;
      const threads = this.o.searchThreads ?? 0;
      const blocks = Math.ceil(total / plan.blockSize);
      if (threads === 0 || total < POOL_MIN_BYTES) {
        const [{ addHistogram }, { readBuffer }] = await Promise.all([import('../byte-stats.js'), import('./read-buffer.js')]);
        const counts = new Uint32Array(256 * blocks);
        const buf = readBuffer(Math.min(this.o.chunkBytes, Math.max(1, plan.blockSize)));
        for (let b = 0; b < blocks; b++) {
          const from = plan.start + b * plan.blockSize;
          const to = Math.min(from + plan.blockSize, plan.end);
          for (let pos = from; pos < to;) {
            call.signal.throwIfAborted();
            const got = await readFully(fh, buf, Math.min(buf.length, to - pos), pos);
            if (got === 0) break;
            addHistogram(buf.subarray(0, got), counts.subarray(256 * b, 256 * (b + 1)));
            pos += got;
          }
          onProgress?.(to - plan.start, total);
        }
        return buildMap(plan, size, counts);
      }
      const { MapPool } = await import('./map-pool.js');
      this.mapPool ??= new MapPool(threads);
      const counts = await this.mapPool.map({
        file: this.key,
        dev,
        ino,
        start: plan.start,
        end: plan.end,
        blockSize: plan.blockSize,
        // A task is at least a few MiB, so small blocks do not cost a message each.
        blocksPerTask: Math.max(1, Math.floor((4 * 1024 * 1024) / plan.blockSize)),
        bufferBytes: Math.min(this.o.chunkBytes, plan.blockSize),
        signal: call.signal,
        onProgress,
      });
      return buildMap(plan, size, counts);
    });
  }

  async getOffsetInfo(offset: number) {
    await this.file.use(async () => undefined);
    return { offset, address_str: addressString(offset) };
  }

  async health(): Promise<HealthReport> {
    try {
      const fh = await openRegularFile(this.key, this.o.writable ? 'r+' : 'r');
      const st = await fh.stat();
      await fh.close();
      return {
        ok: true,
        message: `serving ${this.label}, ${st.size} bytes`,
        detail: { provider: 'file', file: this.key, size: st.size, writable: this.o.writable },
      };
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      if (error instanceof NotRegularFileError)
        return { ok: false, message: notRegular(error, this.key).message, detail: { provider: 'file', file: this.key } };
      return {
        ok: false,
        message: `cannot open ${this.key}: ${e.code ?? e.message} — ${openHint(e, this.o.writable)}`,
        detail: { provider: 'file', file: this.key },
      };
    }
  }

  async close(): Promise<void> {
    const pools = [this.pool, this.mapPool];
    this.pool = undefined;
    this.mapPool = undefined;
    await Promise.all([...pools.map((p) => p?.close()), this.file.close()]);
  }
}

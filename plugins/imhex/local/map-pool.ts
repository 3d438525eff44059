// A file's map is computed on worker threads (map-worker.ts), as large searches are: the main
// thread keeps answering other clients, and every core reads. Tasks (runs of blocks) are taken from
// a shared counter, so a slow core does fewer; each task's histograms come back as one message.
import { ToolError } from '../../../src/backend/index.js';
import { startWorker, workerScript, type TypedWorker } from '../../../src/kit/index.js';
import { blockCount, type MapRange } from './map-range.js';
import type { MapJob, MapReply } from './map-worker.js';

export interface PoolMap extends MapRange {
  signal?: AbortSignal;
  /** Bytes mapped so far, after each task. */
  onProgress?(done: number, total: number): void;
}

interface Job {
  id: number;
  counts: Uint32Array;
  control: Int32Array;
  range: MapRange;
  workersLeft: number;
  done: number;
  progress?: PoolMap['onProgress'];
  settle(error?: unknown): void;
}

const WORKER = workerScript(import.meta.url, './map-worker.js');

export class MapPool {
  readonly size: number;
  private workers: Array<TypedWorker<MapJob, MapReply>> = [];
  private jobs = new Map<number, Job>();
  private nextId = 1;
  private closed = false;

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  private ensureWorkers(): Array<TypedWorker<MapJob, MapReply>> {
    while (this.workers.length < this.size) {
      if (!WORKER) throw new Error('the compiled map worker (map-worker.js) is missing: run npm run build');
      const worker = startWorker<MapJob, MapReply>(WORKER);
      worker.onMessage((m) => this.receive(m));
      worker.onError((error) => this.lost(worker, error));
      worker.onExit((code) => this.lost(worker, new Error(`a file-map worker exited with code ${code}`)));
      this.workers.push(worker);
    }
    return this.workers;
  }

  private lost(worker: TypedWorker<MapJob, MapReply>, error: Error): void {
    const i = this.workers.indexOf(worker);
    if (i < 0) return;
    this.workers.splice(i, 1);
    if (!this.closed) for (const job of this.jobs.values()) job.settle(error);
  }

  /** Every block's byte histogram, 256 counts per block, in order. */
  map(m: PoolMap): Promise<Uint32Array> {
    if (this.closed) return Promise.reject(new Error('the file-map pool is closed'));
    if (m.signal?.aborted) return Promise.reject(m.signal.reason);
    const workers = this.ensureWorkers();
    const { signal, onProgress, ...range } = m;
    const control = new Int32Array(new SharedArrayBuffer(8));
    return new Promise<Uint32Array>((resolve, reject) => {
      const onAbort = () => job.settle(signal!.reason);
      const job: Job = {
        id: this.nextId++,
        counts: new Uint32Array(256 * blockCount(range)),
        control,
        range,
        workersLeft: workers.length,
        done: 0,
        progress: onProgress,
        settle: (error?: unknown) => {
          if (!this.jobs.delete(job.id)) return;
          Atomics.store(control, 1, 1);
          signal?.removeEventListener('abort', onAbort);
          if (error !== undefined) reject(error);
          else resolve(job.counts);
        },
      };
      this.jobs.set(job.id, job);
      signal?.addEventListener('abort', onAbort, { once: true });
      for (const worker of workers) worker.post({ ...range, id: job.id, control });
    });
  }

  private receive(m: MapReply): void {
    const job = this.jobs.get(m.id);
    if (!job) return;
    if ('error' in m) {
      const replaced = m.code === 'ESTALE';
      return job.settle(
        new ToolError(replaced ? m.error : `reading the file failed while mapping it: ${m.code ?? m.error}`, {
          code: replaced ? 'FILE_REPLACED' : 'UNAVAILABLE',
          data: { reason: m.code },
        }),
      );
    }
    if ('finished' in m) {
      if (--job.workersLeft === 0) job.settle();
      return;
    }
    job.counts.set(m.counts, 256 * m.firstBlock);
    const { start, end, blockSize } = job.range;
    job.done += Math.min(m.counts.length / 256, blockCount(job.range) - m.firstBlock) * blockSize;
    job.progress?.(Math.min(job.done, end - start), end - start);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) job.settle(new Error('mcphost is shutting down'));
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

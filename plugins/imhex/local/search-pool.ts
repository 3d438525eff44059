// Large searches of a local file run on worker threads, so the main thread keeps answering other
// clients (a read_bytes is not held up by another client's 1 GiB search) and every core scans.
// The range is cut into tasks that idle workers take from a shared counter (a slow core does
// fewer), each worker reads its task in small buffers (they stay in the CPU cache, which measured
// faster than large ones), and the main thread puts the tasks' matches back in order.
// The worker is search-worker.ts (the kit's worker threads; from the TypeScript tests, its compiled
// copy under dist/).
import { ToolError } from '../../../src/backend/index.js';
import { startWorker, workerScript, type TypedWorker } from '../../../src/kit/index.js';
import type { SearchJob, SearchRange, SearchReply } from './search-worker.js';

export interface PoolSearch extends SearchRange {
  signal?: AbortSignal;
  /** Bytes searched so far (tasks finished), after each task. */
  onProgress?(done: number, total: number): void;
}

export interface PoolResult {
  offsets: number[];
  /** Bytes of the range whose every match start is known. */
  bytesSearched: number;
}

interface TaskResult {
  offsets: number[];
  complete: boolean;
  bytes: number;
}

interface Job {
  id: number;
  tasks: Map<number, TaskResult>;
  taskCount: number;
  total: number;
  wanted: number;
  control: Int32Array;
  progress?: PoolSearch['onProgress'];
  workersLeft: number;
  prefix: number;
  prefixCount: number;
  done: number;
  error?: Error;
  settle(error?: unknown): void;
}

// The shared control words of a job: [0] the next task to take, [1] non-zero once workers must stop.
const CONTROL_STOP = 1;

const WORKER = workerScript(import.meta.url, './search-worker.js');

export class SearchPool {
  readonly size: number;
  private workers: Array<TypedWorker<SearchJob, SearchReply>> = [];
  private jobs = new Map<number, Job>();
  private nextId = 1;
  private closed = false;

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  private ensureWorkers(): Array<TypedWorker<SearchJob, SearchReply>> {
    while (this.workers.length < this.size) {
      if (!WORKER) throw new Error('the compiled search worker (search-worker.js) is missing: run npm run build');
      // Unreferenced (the kit's default): a one-shot `mcphost call` exits when its work is done, idle workers or not.
      const worker = startWorker<SearchJob, SearchReply>(WORKER);
      worker.onMessage((m) => this.receive(m));
      worker.onError((error) => this.lost(worker, error));
      worker.onExit((code) => this.lost(worker, new Error(`a search worker exited with code ${code}`)));
      this.workers.push(worker);
    }
    return this.workers;
  }

  private lost(worker: TypedWorker<SearchJob, SearchReply>, error: Error): void {
    const i = this.workers.indexOf(worker);
    if (i < 0) return;
    this.workers.splice(i, 1);
    if (this.closed) return;
    // Its share of a running job is unknown: fail those jobs; new workers serve the next search.
    for (const job of this.jobs.values()) job.settle(error);
  }

  search(s: PoolSearch): Promise<PoolResult> {
    if (this.closed) return Promise.reject(new Error('the search pool is closed'));
    if (s.signal?.aborted) return Promise.reject(s.signal.reason);
    const total = s.lastStart - s.start;
    const taskCount = Math.ceil(total / s.taskBytes);
    const control = new Int32Array(new SharedArrayBuffer(8));
    const workers = this.ensureWorkers();
    return new Promise<PoolResult>((resolve, reject) => {
      const onAbort = () => job.settle(s.signal!.reason);
      const job: Job = {
        id: this.nextId++,
        tasks: new Map(),
        taskCount,
        total,
        wanted: s.wanted,
        control,
        progress: s.onProgress,
        workersLeft: workers.length,
        prefix: 0,
        prefixCount: 0,
        done: 0,
        settle: (error?: unknown) => {
          if (!this.jobs.delete(job.id)) return;
          Atomics.store(control, CONTROL_STOP, 1);
          s.signal?.removeEventListener('abort', onAbort);
          if (error !== undefined) return reject(error);
          resolve(merge(job));
        },
      };
      this.jobs.set(job.id, job);
      s.signal?.addEventListener('abort', onAbort, { once: true });
      const { signal: _signal, onProgress: _onProgress, ...data } = s;
      for (const worker of workers) worker.post({ ...data, id: job.id, control });
    });
  }

  private receive(m: SearchReply): void {
    const job = this.jobs.get(m.id);
    if (!job) return;
    if ('error' in m) {
      const replaced = m.code === 'ESTALE';
      return job.settle(
        new ToolError(replaced ? m.error : `reading the file failed during the search: ${m.code ?? m.error}`, {
          code: replaced ? 'FILE_REPLACED' : 'UNAVAILABLE',
          data: { reason: m.code },
        }),
      );
    }
    if ('finished' in m) {
      if (--job.workersLeft === 0) job.settle();
      return;
    }
    job.tasks.set(m.task, { offsets: m.offsets, complete: m.complete, bytes: m.bytes });
    if (m.complete) job.done += m.bytes;
    // Once the tasks in order from the first hold enough matches, nothing after them is needed.
    for (let t = job.tasks.get(job.prefix); t?.complete; t = job.tasks.get(job.prefix)) {
      job.prefixCount += t.offsets.length;
      job.prefix++;
    }
    if (job.prefixCount >= job.wanted) Atomics.store(job.control, CONTROL_STOP, 1);
    job.progress?.(job.done, job.total);
  }

  /** Stops the workers; searches still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) job.settle(new Error('mcphost is shutting down'));
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** The matches of the tasks in order, up to the first incomplete one, at most `wanted`. */
function merge(job: Job): PoolResult {
  const wanted = job.wanted;
  const offsets: number[] = [];
  let bytesSearched = 0;
  for (let k = 0; k < job.taskCount && offsets.length < wanted; k++) {
    const t = job.tasks.get(k);
    if (!t) break;
    for (const at of t.offsets) if (offsets.length < wanted) offsets.push(at);
    if (!t.complete) break;
    bytesSearched += t.bytes;
  }
  return { offsets, bytesSearched };
}

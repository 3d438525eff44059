// A search worker (search-pool.ts): takes tasks of a job from the job's shared counter until none is
// left or the pool says stop, and scans each in small buffers (they stay in the CPU cache, which
// measured faster than large ones). A file replaced since the search was planned is refused.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { workerSide } from '../../../src/kit/index.js';
import { scan, type ScanPlan } from '../scan.js';

/** What a search covers: the pool's request and every worker's job share it. */
export interface SearchRange {
  file: string;
  /** The file's identity when the search was planned: a worker refuses a file replaced since. */
  dev: string;
  ino: string;
  plan: ScanPlan;
  /** First match start, and the exclusive bound for match starts. */
  start: number;
  lastStart: number;
  /** Size of the file: no byte at or after it is read. */
  size: number;
  /** Matches wanted: the search stops once the first `wanted` are known. */
  wanted: number;
  taskBytes: number;
  bufferBytes: number;
}

export interface SearchJob extends SearchRange {
  id: number;
  /** [0] the next task to take, [1] non-zero once workers must stop. */
  control: Int32Array;
}

export type SearchReply =
  | { id: number; task: number; offsets: number[]; complete: boolean; bytes: number }
  | { id: number; finished: true }
  | { id: number; error: string; code?: string };

function runJob(job: SearchJob, post: (reply: SearchReply) => void): void {
  let fd: number | undefined;
  try {
    // Non-blocking: a path swapped for a FIFO since the main thread checked it must not hang this thread.
    fd = openSync(job.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd, { bigint: true });
    if (String(st.dev) !== job.dev || String(st.ino) !== job.ino) {
      throw Object.assign(new Error(`${job.file} was replaced by another file during the search`), { code: 'ESTALE' });
    }
    const control = job.control;
    const L = job.plan.mask.length;
    // Not where a fresh mmap starts: see read-buffer.ts (64 bytes in, twice as fast from the page cache).
    const buf = Buffer.allocUnsafe(job.bufferBytes + L - 1 + 64).subarray(64);
    const taskCount = Math.ceil((job.lastStart - job.start) / job.taskBytes);
    for (;;) {
      if (Atomics.load(control, 1) !== 0) break;
      const k = Atomics.add(control, 0, 1);
      if (k >= taskCount) break;
      const from = job.start + k * job.taskBytes;
      const to = Math.min(from + job.taskBytes, job.lastStart);
      const offsets: number[] = [];
      let complete = true;
      for (let pos = from; pos < to; pos += job.bufferBytes) {
        if (Atomics.load(control, 1) !== 0) {
          complete = false;
          break;
        }
        const want = Math.min(buf.length, job.size - pos);
        let got = 0;
        while (got < want) {
          const n = readSync(fd, buf, got, want - got, pos + got);
          if (n === 0) break;
          got += n;
        }
        const limit = Math.min(job.bufferBytes, to - pos, got - L + 1);
        if (limit > 0) scan(buf.subarray(0, got), limit, job.plan, (at: number) => offsets.push(pos + at) < job.wanted);
        if (offsets.length >= job.wanted || got < want) break; // enough from this task, or the file ended early
      }
      post({ id: job.id, task: k, offsets, complete, bytes: to - from });
    }
    post({ id: job.id, finished: true });
  } catch (error) {
    const e = error as { message?: string; code?: string };
    post({ id: job.id, error: e?.message ?? String(error), code: e?.code });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const side = workerSide<undefined, SearchJob, SearchReply>();
side.onMessage((job) => runJob(job, side.post));

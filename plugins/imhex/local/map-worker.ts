// A file-map worker (map-pool.ts): takes tasks (runs of blocks) from the job's shared counter until
// none is left or the pool says stop, reads each block in buffers and posts its byte histogram.
// A file replaced since the map was planned is refused, as the search worker does.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { workerSide } from '../../../src/kit/index.js';
import { addHistogram } from '../byte-stats.js';
import { blockCount, type MapRange } from './map-range.js';

export interface MapJob extends MapRange {
  id: number;
  /** [0] the next task to take, [1] non-zero once workers must stop. */
  control: Int32Array;
}

export type MapReply =
  | { id: number; task: number; firstBlock: number; counts: Uint32Array }
  | { id: number; finished: true }
  | { id: number; error: string; code?: string };

function runJob(job: MapJob, post: (reply: MapReply, transfer?: ArrayBuffer[]) => void): void {
  let fd: number | undefined;
  try {
    fd = openSync(job.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd, { bigint: true });
    if (String(st.dev) !== job.dev || String(st.ino) !== job.ino) {
      throw Object.assign(new Error(`${job.file} was replaced by another file while it was being mapped`), { code: 'ESTALE' });
    }
    // 64 bytes in: see read-buffer.ts.
    const buf = Buffer.allocUnsafe(job.bufferBytes + 64).subarray(64);
    const blocks = blockCount(job);
    const tasks = Math.ceil(blocks / job.blocksPerTask);
    for (;;) {
      if (Atomics.load(job.control, 1) !== 0) break;
      const t = Atomics.add(job.control, 0, 1);
      if (t >= tasks) break;
      const first = t * job.blocksPerTask;
      const n = Math.min(job.blocksPerTask, blocks - first);
      const counts = new Uint32Array(256 * n);
      for (let b = 0; b < n; b++) {
        const from = job.start + (first + b) * job.blockSize;
        const to = Math.min(from + job.blockSize, job.end);
        const into = counts.subarray(256 * b, 256 * (b + 1));
        for (let pos = from; pos < to;) {
          const got = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
          if (got === 0) break; // the file shrank: the block holds what is left
          addHistogram(buf.subarray(0, got), into);
          pos += got;
        }
      }
      post({ id: job.id, task: t, firstBlock: first, counts }, [counts.buffer]);
    }
    post({ id: job.id, finished: true });
  } catch (error) {
    const e = error as { message?: string; code?: string };
    post({ id: job.id, error: e?.message ?? String(error), code: e?.code });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const side = workerSide<undefined, MapJob, MapReply>();
side.onMessage((job) => runJob(job, side.post));

// imhex_file_map on stock ImHex, whose only way to the bytes is read_data: the range is read piece
// by piece (at most mcpPieceBytes each, one request at a time as ImHex serves them) and each piece
// is counted on a worker thread (histogram-worker.ts) while the next one is read. At most
// IN_FLIGHT pieces wait for the worker, so memory stays a few pieces whatever the file's size.
import { ToolError } from '../../../src/backend/index.js';
import { startWorker, workerScript, type TypedWorker } from '../../../src/kit/index.js';
import type { MapPlan } from '../file-map.js';
import type { PieceJob, PieceReply } from './histogram-worker.js';

const WORKER = workerScript(import.meta.url, './histogram-worker.js');
const IN_FLIGHT = 4;

/** One piece of the data: ImHex's base64 and how many of its bytes are data. */
export type ReadPiece = (offset: number, length: number) => Promise<{ base64: string; valid: number }>;

export interface StockMapOptions {
  pieceBytes: number;
  signal: AbortSignal;
  onProgress?(done: number, total: number): void;
}

/** Every block's byte histogram (256 counts per block, in order) for `plan`, from pieces `read` gives. */
export async function stockHistograms(plan: MapPlan, read: ReadPiece, options: StockMapOptions): Promise<Uint32Array> {
  const blocks = Math.ceil((plan.end - plan.start) / plan.blockSize);
  const counts = new Uint32Array(256 * blocks);
  if (blocks === 0) return counts;
  if (!WORKER) throw new Error('the compiled histogram worker (histogram-worker.js) is missing: run npm run build');
  const worker: TypedWorker<PieceJob, PieceReply> = startWorker<PieceJob, PieceReply>(WORKER);
  const waiting = new Map<number, { resolve(): void; reject(error: unknown): void }>();
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.onMessage((reply) => {
    const w = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ('error' in reply) return w?.reject(new ToolError(`counting bytes for the file map failed: ${reply.error}`));
    const into = counts.subarray(256 * reply.firstBlock, 256 * reply.firstBlock + reply.counts.length);
    for (let i = 0; i < reply.counts.length; i++) into[i] += reply.counts[i];
    w?.resolve();
  });
  worker.onError(fail);
  worker.onExit((code) => fail(new Error(`the file-map worker exited with code ${code}`)));
  const pending: Array<Promise<void>> = [];
  try {
    let id = 0;
    let done = 0;
    for (let pos = plan.start; pos < plan.end;) {
      options.signal.throwIfAborted();
      if (failure) throw failure;
      const want = Math.min(options.pieceBytes, plan.end - pos);
      const piece = await read(pos, want);
      const job: PieceJob = {
        id: id++,
        start: plan.start,
        blockSize: plan.blockSize,
        offset: pos,
        base64: piece.base64,
        valid: Math.min(piece.valid, want),
      };
      pending.push(new Promise<void>((resolve, reject) => waiting.set(job.id, { resolve, reject })));
      worker.post(job);
      if (pending.length >= IN_FLIGHT) await pending.shift();
      done += want;
      pos += want;
      options.onProgress?.(done, plan.end - plan.start);
      if (piece.valid < want) break; // the data ended early (it shrank since it was listed)
    }
    await Promise.all(pending);
    return counts;
  } finally {
    // Rejections of pieces never awaited are already in `failure` or thrown above.
    for (const p of pending) p.catch(() => undefined);
    await worker.terminate();
  }
}

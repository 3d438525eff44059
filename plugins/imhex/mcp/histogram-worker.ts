// The file map's byte counting for stock ImHex (stock-map.ts): each piece read_data answered comes
// here as ImHex's base64, is decoded and counted into the blocks it covers, so neither the decoding
// nor the per-byte loop runs on the thread that answers other clients.
import { workerSide } from '../../../src/kit/index.js';
import { addHistogram } from '../byte-stats.js';

export interface PieceJob {
  id: number;
  /** Where the map starts, and its block size: which block a byte falls in. */
  start: number;
  blockSize: number;
  /** Where this piece starts, its base64 and how many of its decoded bytes are data (ImHex pads with zeros past the end). */
  offset: number;
  base64: string;
  valid: number;
}

export type PieceReply = { id: number; firstBlock: number; counts: Uint32Array } | { id: number; error: string };

function count(job: PieceJob): PieceReply {
  const bytes = Buffer.from(job.base64, 'base64').subarray(0, job.valid);
  const firstBlock = Math.floor((job.offset - job.start) / job.blockSize);
  const lastBlock = Math.floor((job.offset + Math.max(0, bytes.length - 1) - job.start) / job.blockSize);
  const counts = new Uint32Array(256 * (lastBlock - firstBlock + 1));
  for (let b = firstBlock; b <= lastBlock; b++) {
    const from = Math.max(job.offset, job.start + b * job.blockSize) - job.offset;
    const to = Math.min(job.offset + bytes.length, job.start + (b + 1) * job.blockSize) - job.offset;
    if (to > from) addHistogram(bytes.subarray(from, to), counts.subarray(256 * (b - firstBlock), 256 * (b - firstBlock + 1)));
  }
  return { id: job.id, firstBlock, counts };
}

const side = workerSide<undefined, PieceJob, PieceReply>();
side.onMessage((job) => {
  try {
    const reply = count(job);
    side.post(reply, 'counts' in reply ? [reply.counts.buffer as ArrayBuffer] : []);
  } catch (error) {
    side.post({ id: job.id, error: (error as Error)?.message ?? String(error) });
  }
});

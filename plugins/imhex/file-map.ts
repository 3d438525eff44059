// imhex_file_map: the whole file (or a range of it) cut into blocks, each with its entropy and byte
// classes (byte-stats.ts). Planned here, computed by the local provider (worker threads for large
// ranges), rendered as a short text of runs of blocks of one kind for clients that read text.
import { blockStats, type BlockKind, type BlockStats } from './byte-stats.js';
import { invalidParams } from './errors.js';
import { DEFAULT_BLOCKS, MAX_BLOCKS, MIN_BLOCK_SIZE } from './schemas.js';

export interface FileMapRequest {
  start_offset: number;
  /** Exclusive; undefined = end of data. */
  end_offset?: number;
  blocks?: number;
  block_size?: number;
}

export interface FileMap {
  file_size: number;
  start_offset: number;
  end_offset: number;
  block_size: number;
  blocks: BlockStats[];
  summary: { entropy_mean: number; kinds: Record<BlockKind, number> };
}

export interface MapPlan {
  start: number;
  end: number;
  blockSize: number;
}

/** The blocks of `request` over data of `size` bytes (checked: the fields are named in errors). */
export function planMap(request: FileMapRequest, size: number): MapPlan {
  const start = request.start_offset;
  if (start > size) throw invalidParams('start_offset', `${start} is past the end of the data (${size} bytes)`, { dataSize: size });
  const end = Math.min(request.end_offset ?? size, size);
  if (end < start) throw invalidParams('end_offset', `${end} is before start_offset ${start}`);
  const span = end - start;
  if (request.block_size !== undefined && request.blocks !== undefined) {
    throw invalidParams('block_size', 'give blocks or block_size, not both');
  }
  if (request.block_size !== undefined) {
    if (request.block_size < MIN_BLOCK_SIZE)
      throw invalidParams('block_size', `must be ${MIN_BLOCK_SIZE} or more, got ${request.block_size}`);
    if (Math.ceil(span / request.block_size) > MAX_BLOCKS) {
      throw invalidParams(
        'block_size',
        `${request.block_size} cuts ${span} bytes into more than ${MAX_BLOCKS} blocks: use at least ${Math.ceil(span / MAX_BLOCKS)}, or map a smaller range`,
      );
    }
    return { start, end, blockSize: request.block_size };
  }
  const blocks = request.blocks ?? DEFAULT_BLOCKS;
  if (blocks < 1 || blocks > MAX_BLOCKS) throw invalidParams('blocks', `must be 1 to ${MAX_BLOCKS}, got ${blocks}`);
  // A multiple of 512, so block offsets stay round numbers; the count may then come out a little lower.
  return { start, end, blockSize: Math.max(MIN_BLOCK_SIZE, Math.ceil(span / blocks / 512) * 512) };
}

/** The map from every block's histogram (256 counts per block, in order). */
export function buildMap(plan: MapPlan, size: number, counts: Uint32Array): FileMap {
  const blocks: BlockStats[] = [];
  const kinds: Record<BlockKind, number> = { zeros: 0, ff: 0, text: 0, random: 0, binary: 0 };
  let weighted = 0;
  let mapped = 0;
  for (let b = 0; b * 256 < counts.length; b++) {
    const s = blockStats(plan.start + b * plan.blockSize, counts.subarray(256 * b, 256 * (b + 1)));
    if (s.size === 0) continue; // past the end of a file that shrank
    blocks.push(s);
    kinds[s.kind]++;
    weighted += s.entropy * s.size;
    mapped += s.size;
  }
  const entropy_mean = mapped === 0 ? 0 : Math.round((weighted / mapped) * 1000) / 1000;
  return {
    file_size: size,
    start_offset: plan.start,
    end_offset: plan.end,
    block_size: plan.blockSize,
    blocks,
    summary: { entropy_mean, kinds },
  };
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

function sizeText(n: number): string {
  for (const [unit, bytes] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (n >= bytes) return n % bytes === 0 ? `${n / bytes} ${unit}` : `${n} bytes (${(n / bytes).toFixed(2)} ${unit})`;
  }
  return `${n} bytes`;
}

const KIND_TEXT: Record<BlockKind, string> = {
  zeros: 'zeros',
  ff: '0xFF padding',
  text: 'text',
  random: 'high entropy (compressed or encrypted)',
  binary: 'binary',
};

/** The map as runs of consecutive blocks of one kind, the first `shown` of them. */
export function fileMapText(map: FileMap, shown = 30): string {
  const n = map.blocks.length;
  const head =
    `Map of [${hex(map.start_offset)}, ${hex(map.end_offset)}) (${map.end_offset - map.start_offset} of ${map.file_size} bytes): ` +
    `${n} block${n === 1 ? '' : 's'} of ${sizeText(map.block_size)}, mean entropy ${map.summary.entropy_mean} bits/byte.`;
  const runs: string[] = [];
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && map.blocks[j + 1].kind === map.blocks[i].kind) j++;
    const from = map.blocks[i];
    const to = map.blocks[j];
    let entropy = 0;
    for (let k = i; k <= j; k++) entropy += map.blocks[k].entropy;
    runs.push(
      `[${hex(from.offset)}, ${hex(to.offset + to.size)}): ${KIND_TEXT[from.kind]}, ${j - i + 1} block${j > i ? 's' : ''}, entropy ${(entropy / (j - i + 1)).toFixed(2)}`,
    );
    i = j + 1;
  }
  const more = runs.length > shown ? [`… ${runs.length - shown} more runs in the structured result`] : [];
  return [head, ...runs.slice(0, shown), ...more].join('\n');
}

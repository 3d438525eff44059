// Input and output schemas of the imhex tools. Inputs check types only; ranges are advertised
// in the JSON Schema (`minimum`) and enforced by the handlers, so a bad value comes back with the
// protocol's -32602 and the field's name.
import * as z from 'zod';
import { offsetInfoResult, readBytesResult, searchResult, selectionResult, setSelectionResult, writeBytesResult } from './protocol.js';

const offset = (description: string) => z.number().int().meta({ minimum: 0, description });

const DEFAULT_COUNT = 256;
export const DEFAULT_MAX_RESULTS = 1000;
/** Bounds every search answer (≈ 1.2 MB of offsets as JSON). */
export const MAX_RESULTS_LIMIT = 100_000;
/** Bounds every hexdump answer: 16 384 lines, ≈ 1.1 MB of text (sent twice: as text and structured). */
export const HEXDUMP_LIMIT = 256 * 1024;

/** file_map's blocks: how many by default, and at most. */
export const DEFAULT_BLOCKS = 256;
export const MAX_BLOCKS = 4096;
/** Smaller blocks say little: their entropy cannot pass log2(size) bits. */
export const MIN_BLOCK_SIZE = 512;

export const inputs = {
  getSelection: z.object({}),
  setSelection: z.object({
    start_offset: offset('first selected byte'),
    size: offset('number of bytes to select; 0 clears the selection'),
  }),
  readBytes: z.object({
    offset: offset('where to start reading (decimal, or 0x… on the command line)'),
    count: offset('how many bytes to read (at most plugins.imhex.maxBytes, 1 MiB unless configured)').default(DEFAULT_COUNT),
  }),
  writeBytes: z.object({
    offset: offset('where to start writing'),
    data: z.string().describe('bytes as hex, e.g. "deadbeef" or "de ad be ef"'),
  }),
  search: z.object({
    pattern: z.string().describe('bytes as hex; ?? matches any byte; spaces allowed, e.g. "4A ?? 6F"'),
    start_offset: offset('first offset where a match may start (default 0)').optional(),
    end_offset: offset('matches must start before this offset (default: end of data); a match may run past it').optional(),
    max_results: z
      .number()
      .int()
      .meta({
        minimum: 1,
        maximum: MAX_RESULTS_LIMIT,
        default: DEFAULT_MAX_RESULTS,
        description: `stop after this many matches (default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS_LIMIT}); the result then says truncated: true`,
      })
      .optional(),
    maxResults: z
      .number()
      .int()
      .meta({
        minimum: 1,
        maximum: MAX_RESULTS_LIMIT,
        deprecated: true,
        description: 'deprecated name of max_results (accepted until the next release)',
      })
      .optional(),
  }),
  getOffsetInfo: z.object({ offset: offset('the offset to describe and interpret') }),
  fileMap: z.object({
    start_offset: offset('first byte mapped (default 0)').optional(),
    end_offset: offset('the map ends before this offset (default: end of data)').optional(),
    blocks: z
      .number()
      .int()
      .meta({
        minimum: 1,
        maximum: MAX_BLOCKS,
        default: DEFAULT_BLOCKS,
        description: `how many blocks to cut the range into (default ${DEFAULT_BLOCKS}, at most ${MAX_BLOCKS}; blocks are at least ${MIN_BLOCK_SIZE} bytes)`,
      })
      .optional(),
    block_size: z.number().int().meta({ minimum: MIN_BLOCK_SIZE, description: 'bytes per block instead of a block count' }).optional(),
  }),
  hexdump: z.object({
    offset: offset('where the dump starts').default(0),
    count: offset(`how many bytes to dump (at most ${HEXDUMP_LIMIT}, and at most plugins.imhex.maxBytes)`).default(DEFAULT_COUNT),
  }),
};

const numberViews = z.object({
  u16: z.number().nullable(),
  i16: z.number().nullable(),
  u32: z.number().nullable(),
  i32: z.number().nullable(),
  u64: z.string().nullable(),
  i64: z.string().nullable(),
  f32: z.union([z.number(), z.string()]).nullable(),
  f64: z.union([z.number(), z.string()]).nullable(),
});

const inspectionSchema = z.object({
  bytes_available: z.number().int(),
  hex: z.string(),
  u8: z.number().nullable(),
  i8: z.number().nullable(),
  little_endian: numberViews,
  big_endian: numberViews,
  ascii: z.string(),
  utf8: z.string(),
});

const share = (what: string) => z.number().meta({ minimum: 0, maximum: 1, description: `share of the block's bytes that are ${what}` });

const blockSchema = z.object({
  offset: z.number().int(),
  size: z.number().int(),
  entropy: z.number().meta({ minimum: 0, maximum: 8, description: 'Shannon entropy of the bytes, bits per byte' }),
  zero: share('0x00'),
  ff: share('0xFF'),
  text: share('printable ASCII, tab, CR or LF'),
  control: share('other bytes below 0x80'),
  high: share('0x80-0xFE'),
  kind: z.enum(['zeros', 'ff', 'text', 'random', 'binary']),
});

export const outputs = {
  getSelection: selectionResult,
  setSelection: setSelectionResult,
  readBytes: readBytesResult,
  writeBytes: writeBytesResult,
  search: searchResult.extend({ truncated: z.literal(true).optional() }),
  getOffsetInfo: offsetInfoResult.extend({ inspector: inspectionSchema }),
  hexdump: z.object({ offset: z.number().int(), count: z.number().int(), bytes_read: z.number().int(), dump: z.string() }),
  fileMap: z.object({
    file_size: z.number().int(),
    start_offset: z.number().int(),
    end_offset: z.number().int(),
    block_size: z.number().int(),
    blocks: z.array(blockSchema),
    summary: z.object({
      entropy_mean: z.number(),
      kinds: z.object({
        zeros: z.number().int(),
        ff: z.number().int(),
        text: z.number().int(),
        random: z.number().int(),
        binary: z.number().int(),
      }),
    }),
  }),
};

// The ImHex "MCP Integration" protocol: the six commands, their result shapes and error codes.
// Both providers answer with exactly these shapes; the ImHex client checks ImHex's answers
// against them.
import * as z from 'zod';

export const RpcCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  NO_PROVIDER: -32001,
  NOT_WRITABLE: -32003,
} as const;

const offset = z.number().int().min(0);

export const selectionResult = z.object({
  start_offset: offset.nullable(),
  size: offset,
  end_offset: offset.nullable(),
});

export const setSelectionResult = z.object({ status: z.literal('success'), start_offset: offset, size: offset });

export const readBytesResult = z.object({
  offset,
  count: offset,
  bytes_read: offset,
  hex_data: z.string().regex(/^(?:[0-9a-f]{2})*$/, 'expected lowercase hex'),
});

export const writeBytesResult = z.object({ offset, bytes_written: offset, status: z.literal('success') });

export const searchResult = z.object({ offsets: z.array(offset) });

export const offsetInfoResult = z.object({ offset, address_str: z.string().regex(/^0x[0-9A-Fa-f]{8,}$/) });

export type Selection = z.output<typeof selectionResult>;
export type SetSelectionResult = z.output<typeof setSelectionResult>;
export type ReadBytesResult = z.output<typeof readBytesResult>;
export type WriteBytesResult = z.output<typeof writeBytesResult>;
export type SearchResult = z.output<typeof searchResult> & { truncated?: true };
export type OffsetInfo = z.output<typeof offsetInfoResult>;

/** `0x00001000`: at least 8 upper-case hex digits, more when the offset needs them. */
export function addressString(offset: number): string {
  return `0x${offset.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** The selection shape for `start`/`size` (size 0 means nothing is selected). */
export function selectionOf(start: number | null, size: number): Selection {
  if (start === null || size === 0) return { start_offset: null, size: 0, end_offset: null };
  return { start_offset: start, size, end_offset: start + size - 1 };
}

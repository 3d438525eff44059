// The eight imhex tools. Each checks its arguments the same way for both providers, asks the
// provider, and returns the protocol's result as structured content plus a short text.
import { defineTool, structured, ToolError, type CallContext, type ToolDef } from '../../src/backend/index.js';
import type { ImHexConfig } from './config.js';
import type { ImHexProvider, ProviderCall } from './provider.js';
import { offsetInfoText, readText, searchText, selectionText, setSelectionText, writeText } from './render.js';
import { HEX_VIEW, MAP_VIEW, viewMeta } from './views.js';
import { DEFAULT_MAX_RESULTS, HEXDUMP_LIMIT, inputs, MAX_RESULTS_LIMIT, outputs } from './schemas.js';
import { checkCount, checkMaxResults, checkOffset, checkRange } from './validate.js';

export type ProviderFor = (ctx: CallContext<ImHexConfig>) => Promise<ImHexProvider>;

const call = (ctx: CallContext<ImHexConfig>): ProviderCall => ({ signal: ctx.signal, progress: ctx.progress, client: ctx.client });
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const tool = defineTool<ImHexConfig>();

export function imhexTools(providerFor: ProviderFor): ToolDef<ImHexConfig>[] {
  return [
    tool({
      name: 'get_selection',
      title: 'Get selection',
      description: 'The current selection: start_offset, size and end_offset (inclusive); nulls and size 0 when nothing is selected.',
      input: inputs.getSelection,
      output: outputs.getSelection,
      annotations: readOnly,
      handler: async (_args, ctx) => {
        const s = await (await providerFor(ctx)).getSelection(call(ctx));
        return structured(s, selectionText(s));
      },
    }),
    tool({
      name: 'set_selection',
      title: 'Set selection',
      description: 'Selects size bytes starting at start_offset (size 0 clears the selection).',
      input: inputs.setSelection,
      output: outputs.setSelection,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async ({ start_offset, size }, ctx) => {
        checkOffset('start_offset', start_offset);
        checkOffset('size', size);
        const r = await (await providerFor(ctx)).setSelection(start_offset, size, call(ctx));
        return structured(r, setSelectionText(r.start_offset, r.size));
      },
    }),
    tool({
      name: 'read_bytes',
      title: 'Read bytes',
      description: 'Reads count bytes at offset as lowercase hex (hex_data); bytes_read is less than count at the end of the data.',
      input: inputs.readBytes,
      output: outputs.readBytes,
      _meta: viewMeta(HEX_VIEW),
      annotations: readOnly,
      handler: async ({ offset, count }, ctx) => {
        checkOffset('offset', offset);
        checkCount('count', count, ctx.config.maxBytes);
        const r = await (await providerFor(ctx)).readBytes(offset, count, call(ctx));
        return structured(r, readText(r));
      },
    }),
    tool({
      name: 'write_bytes',
      title: 'Write bytes',
      description:
        'Overwrites bytes at offset with data (hex). A local file must be configured writable: true; writes never extend it unless allowGrow: true.',
      input: inputs.writeBytes,
      output: outputs.writeBytes,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      handler: async ({ offset, data }, ctx) => {
        checkOffset('offset', offset);
        const { parseHexData } = await import('./hex.js');
        const bytes = parseHexData('data', data);
        checkCount('data', bytes.length, ctx.config.maxBytes);
        const r = await (await providerFor(ctx)).writeBytes(offset, bytes, call(ctx));
        return structured(r, writeText(r.offset, r.bytes_written));
      },
    }),
    tool({
      name: 'search',
      title: 'Search bytes',
      description:
        'Finds every occurrence of a hex byte pattern (?? = any byte, spaces allowed; text as its bytes: "PK" is 50 4B) and returns the offsets where it starts, in [start_offset, end_offset). ' +
        `Stops after max_results matches (default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS_LIMIT}) with truncated: true.`,
      input: inputs.search,
      output: outputs.search,
      _meta: viewMeta(HEX_VIEW),
      annotations: readOnly,
      // A 1 GiB file takes seconds: a client that follows tasks polls it (progress as its status)
      // and may cancel it, which stops the scan (the pool's workers check between buffers).
      task: 'optional',
      handler: async ({ pattern, start_offset, end_offset, max_results, maxResults: deprecated }, ctx) => {
        const { parsePattern } = await import('./hex.js');
        const parsed = parsePattern('pattern', pattern);
        const range = checkRange(start_offset, end_offset);
        const maxResults = checkMaxResults(max_results, deprecated, DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT);
        const provider = await providerFor(ctx);
        const r = await provider.search({ pattern: parsed, start_offset: range.start, end_offset: range.end, maxResults }, call(ctx));
        return structured(r, searchText(parsed.text, r));
      },
    }),
    tool({
      name: 'get_offset_info',
      title: 'Offset info and data inspector',
      description:
        'The address of an offset (address_str, 0x%08X) and a data inspector: u8…u64 / i8…i64 (64-bit as strings), f32 and f64 in ' +
        'little and big endian, ASCII and UTF-8 previews of the bytes there.',
      input: inputs.getOffsetInfo,
      output: outputs.getOffsetInfo,
      annotations: readOnly,
      handler: async ({ offset }, ctx) => {
        checkOffset('offset', offset);
        const { INSPECT_BYTES, inspect } = await import('./inspector.js');
        const provider = await providerFor(ctx);
        const info = await provider.getOffsetInfo(offset, call(ctx));
        const read = await provider.readBytes(offset, INSPECT_BYTES, call(ctx));
        const inspector = inspect(Buffer.from(read.hex_data, 'hex'));
        return structured({ ...info, inspector }, offsetInfoText(info, inspector));
      },
    }),
    tool({
      name: 'file_map',
      title: 'File map: entropy and byte classes',
      description:
        'Cuts the file (or [start_offset, end_offset)) into blocks and gives each its Shannon entropy (bits/byte) and the share of ' +
        'zero, 0xFF, text, control and high bytes, with a kind (zeros, ff, text, random = compressed or encrypted, binary): where the ' +
        'code, data, strings, padding and packed parts of a firmware image lie. A local file, or stock ImHex (read through its read_data).',
      input: inputs.fileMap,
      output: outputs.fileMap,
      _meta: viewMeta(MAP_VIEW),
      annotations: readOnly,
      // A 1 GiB file takes about a second on worker threads; a client that follows tasks may poll it.
      task: 'optional',
      handler: async ({ start_offset, end_offset, blocks, block_size }, ctx) => {
        const range = checkRange(start_offset, end_offset);
        const provider = await providerFor(ctx);
        if (!provider.fileMap) {
          throw new ToolError(
            `file_map reads every byte, which a local file or stock ImHex's read_data allows: ${provider.label} gives no fast way to. ` +
              'Set plugins.imhex.file (or pass --file) to map a file, or use stock ImHex (mode imhex-mcp)',
            { code: 'UNAVAILABLE' },
          );
        }
        const map = await provider.fileMap({ start_offset: range.start, end_offset: range.end, blocks, block_size }, call(ctx));
        const { fileMapText } = await import('./file-map.js');
        return structured({ ...map }, fileMapText(map));
      },
    }),
    tool({
      name: 'hexdump',
      title: 'Hex dump',
      description: 'A classic dump of count bytes at offset, 16 per line with offsets and an ASCII column (the layout of xxd).',
      input: inputs.hexdump,
      output: outputs.hexdump,
      annotations: readOnly,
      handler: async ({ offset, count }, ctx) => {
        checkOffset('offset', offset);
        const limit = Math.min(HEXDUMP_LIMIT, ctx.config.maxBytes);
        checkCount(
          'count',
          count,
          limit,
          limit === HEXDUMP_LIMIT ? 'dump in parts, or use read_bytes' : 'dump in parts, or raise plugins.imhex.maxBytes',
        );
        const r = await (await providerFor(ctx)).readBytes(offset, count, call(ctx));
        const { xxd } = await import('./hexdump.js');
        const dump = xxd(Buffer.from(r.hex_data, 'hex'), offset);
        return structured({ offset, count, bytes_read: r.bytes_read, dump }, dump || `No data at ${offset} (end of data).`);
      },
    }),
  ];
}

/** With ImHex, what a command acts on and what ImHex lacks, said where a client reads it. */
const STOCK_NOTES: Record<string, string> = {
  read_bytes: "Reads what ImHex has open (imhex_open_file opens a file); ImHex's own read_data is not published beside it.",
  hexdump: 'Dumps what ImHex has open.',
  search: 'Searches what ImHex has open.',
  get_offset_info: 'Inspects what ImHex has open.',
};
/** Seed commands stock ImHex has no tool for, and the tool that would serve them. */
const STOCK_MISSING: Record<string, string> = { write_bytes: 'write_data', get_selection: 'get_selection', set_selection: 'set_selection' };

/**
 * The seed's commands as they are listed where stock ImHex may answer them (`onlyStock`: mode
 * imhex-mcp; otherwise mode auto may find the MCP Integration plugin first): each says it acts on
 * what ImHex has open, and a command stock ImHex has no tool for says so, unless ImHex lists one.
 */
export function withStockNotes(seed: ToolDef<ImHexConfig>[], known: Array<{ name: string }>, onlyStock: boolean): ToolDef<ImHexConfig>[] {
  const names = new Set(known.map((t) => t.name));
  return seed.map((t) => {
    const note = STOCK_NOTES[t.name];
    const missing = STOCK_MISSING[t.name];
    const lacks =
      missing && !names.has(missing)
        ? ` Stock ImHex ${onlyStock ? 'has' : '(if that is what answers) has'} no tool for it: refused there, unless ImHex lists ${missing}.`
        : '';
    return note || lacks ? { ...t, description: `${t.description}${note ? ` ${note}` : ''}${lacks}` } : t;
  });
}

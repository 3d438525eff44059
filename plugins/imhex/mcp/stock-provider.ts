// The seed's six commands on stock ImHex, through its MCP tools. Reads go through read_data in
// pieces of at most `pieceBytes` (ImHex caps one read at 16 MiB, and its bridge moves answers one
// byte per system call, so pieces bound each request's time); its base64 is decoded here. ImHex
// answers zeros for bytes past the end of the data (mcp_tools.cpp reads into a zeroed buffer that
// FileProvider::readRaw leaves untouched), so every read is cut at the data source's size.
// Search runs here over those pieces, and the file map counts them on a worker (stock-map.ts).
// With several clients, each reads the data source it chose (open_file, select_data_source), or
// the user's when it chose none: ImHex has one current source, switched per request under a lock
// (StockImHex.onSource). Writing and the selection have no tool in stock ImHex: they
// use one when the ImHex in use lists it (write_data, get_selection, set_selection), and answer a
// clear refusal otherwise.
import * as z from 'zod';
import { ToolError, type HealthReport } from '../../../src/backend/index.js';
import { addressString, RpcCode, selectionResult, setSelectionResult } from '../protocol.js';
import type { ImHexProvider, ProviderCall, SearchRequest } from '../provider.js';
import { buildMap, planMap, type FileMap, type FileMapRequest } from '../file-map.js';
import { chunkedSearch } from '../local/search.js';
import { clientSource } from './client-source.js';
import { StockImHex, type DataSource } from './stock-client.js';
import { stockHistograms } from './stock-map.js';

export interface StockProviderOptions {
  pieceBytes: number;
}

const readData = z.object({ handle: z.number(), data: z.string(), data_size: z.number().optional() });

const unsupported = (what: string) =>
  new ToolError(
    `${what} is not supported by stock ImHex's MCP server (it has no tool for it): use mode imhex with the MCP Integration plugin, or a file (plugins.imhex.file)`,
    { code: RpcCode.METHOD_NOT_FOUND, data: { provider: 'imhex-mcp' } },
  );

export class StockProvider implements ImHexProvider {
  readonly kind = 'imhex-mcp';
  readonly label: string;
  readonly imhex: StockImHex;
  private readonly o: StockProviderOptions;

  constructor(imhex: StockImHex, options: StockProviderOptions) {
    this.imhex = imhex;
    this.o = options;
    this.label = `stock ImHex via \`${imhex.commandLine}\``;
  }

  /** One read_data on the client's data source (see StockImHex.onSource). */
  private piece(address: number, size: number, call: ProviderCall) {
    return this.imhex.onSource(
      clientSource(call.client).handle,
      async () => {
        const r = await this.imhex.structured('read_data', { address, size }, readData, { signal: call.signal });
        return { value: r, handle: r.handle };
      },
      { signal: call.signal },
    );
  }

  /** The client's data source, when it chose one: it must still be open. */
  private chosen(call: ProviderCall, sources: DataSource[]): DataSource | undefined {
    const handle = clientSource(call.client).handle;
    if (handle === undefined) return undefined;
    const found = sources.find((s) => s.handle === handle);
    if (!found)
      throw new ToolError(
        `the data source you chose (handle ${handle}) is no longer open in ImHex: choose one with imhex_select_data_source or open one with imhex_open_file`,
        { code: RpcCode.NO_PROVIDER, data: { handle } },
      );
    return found;
  }

  /** Reads `length` bytes at `position` into `into`, piece by piece; stops at the end of the data. */
  private async read(into: Buffer, length: number, position: number, call: ProviderCall, known?: DataSource[]): Promise<number> {
    const sources = known ?? (await this.imhex.openSources({ signal: call.signal }));
    let size = (this.chosen(call, sources) ?? (sources.length === 1 ? sources[0] : undefined))?.size ?? Infinity;
    let got = 0;
    while (got < length && position + got < size) {
      const want = Math.min(length - got, this.o.pieceBytes, size - position - got);
      const r = await this.piece(position + got, want, call);
      if (size === Infinity) size = sources.find((s) => s.handle === r.handle)?.size ?? Infinity;
      const bytes = Buffer.from(r.data, 'base64');
      const valid = Math.max(0, Math.min(bytes.length, want, size - position - got));
      bytes.copy(into, got, 0, valid);
      got += valid;
      if (bytes.length === 0) break;
    }
    return got;
  }

  async readBytes(offset: number, count: number, call: ProviderCall) {
    const buffer = Buffer.alloc(count);
    const got = count === 0 ? 0 : await this.read(buffer, count, offset, call);
    return { offset, count, bytes_read: got, hex_data: buffer.toString('hex', 0, got) };
  }

  /** The current data source (with several open, reading nothing at 0 tells which one is current). */
  private async current(call: ProviderCall): Promise<DataSource> {
    const sources = await this.imhex.openSources({ signal: call.signal });
    const mine = this.chosen(call, sources);
    if (mine) return mine;
    if (sources.length === 1) return sources[0];
    const probe = await this.piece(0, 0, call);
    const found = sources.find((s) => s.handle === probe.handle);
    if (!found)
      throw new ToolError(`ImHex's current data source (handle ${probe.handle}) is not among its open ones; try again`, {
        code: 'BAD_RESPONSE',
      });
    return found;
  }

  async search(request: SearchRequest, call: ProviderCall) {
    const source = await this.current(call);
    const size = source.size;
    const end = Math.min(request.end_offset ?? size, size);
    const r = await chunkedSearch((buf, len, pos) => this.read(buf, len, pos, call, [source]), request.pattern, {
      start: request.start_offset,
      end,
      size,
      maxResults: request.maxResults,
      // Each chunk is read with the pattern's length - 1 more bytes: together exactly one piece.
      chunkBytes: Math.max(1, this.o.pieceBytes - (request.pattern.bytes.length - 1)),
      signal: call.signal,
      onProgress:
        call.progress && (({ done, total }) => call.progress!({ progress: done, total, message: `searched ${done} of ${total} bytes` })),
    });
    return r.truncated ? { offsets: r.offsets, truncated: true as const } : { offsets: r.offsets };
  }

  /** The file map, read through read_data and counted on a worker (stock-map.ts). */
  async fileMap(request: FileMapRequest, call: ProviderCall): Promise<FileMap> {
    const source = await this.current(call);
    const plan = planMap(request, source.size);
    let reported = 0;
    const counts = await stockHistograms(
      plan,
      async (offset, length) => {
        const r = await this.piece(offset, length, call);
        if (r.handle !== source.handle)
          throw new ToolError(`ImHex switched data source while the map was read (handle ${r.handle}, not ${source.handle}); map again`, {
            code: 'BAD_RESPONSE',
          });
        return { base64: r.data, valid: Math.max(0, Math.min(length, source.size - offset)) };
      },
      {
        pieceBytes: this.o.pieceBytes,
        signal: call.signal,
        onProgress:
          call.progress &&
          ((done, total) => {
            if (done - reported < total / 100 && done < total) return;
            reported = done;
            call.progress!({ progress: done, total, message: `mapped ${done} of ${total} bytes` });
          }),
      },
    );
    return buildMap(plan, source.size, counts);
  }

  /** No request of its own: get_offset_info reads the bytes next, which checks a data source is open. */
  async getOffsetInfo(offset: number) {
    return { offset, address_str: addressString(offset) };
  }

  async writeBytes(offset: number, data: Buffer, call: ProviderCall) {
    if (!(await this.imhex.offers('write_data', call.signal))) throw unsupported('write_bytes');
    const r = await this.imhex.structured(
      'write_data',
      { address: offset, data: data.toString('base64') },
      z.object({ data_size: z.number().optional() }).passthrough(),
      { signal: call.signal },
    );
    return { offset, bytes_written: r.data_size ?? data.length, status: 'success' as const };
  }

  async getSelection(call: ProviderCall) {
    if (!(await this.imhex.offers('get_selection', call.signal))) throw unsupported('get_selection');
    return this.imhex.structured('get_selection', {}, selectionResult, { signal: call.signal });
  }

  async setSelection(start_offset: number, size: number, call: ProviderCall) {
    if (!(await this.imhex.offers('set_selection', call.signal))) throw unsupported('set_selection');
    return this.imhex.structured('set_selection', { start_offset, size }, setSelectionResult, { signal: call.signal });
  }

  async health(): Promise<HealthReport> {
    const detail: Record<string, unknown> = { provider: 'imhex-mcp', command: this.imhex.commandLine };
    try {
      await this.imhex.connect();
    } catch (error) {
      return { ok: false, message: (error as Error).message, detail };
    }
    const bridge = this.imhex.status();
    const who = `stock ImHex${bridge.server ? ` ${bridge.server.version}` : ''} via \`${this.imhex.commandLine}\``;
    Object.assign(detail, { bridge, tools: this.imhex.tools().map((t) => t.name) });
    try {
      const sources = await this.imhex.openSources({ timeoutMs: 5_000 });
      const list = sources.map((s) => `${s.name} (${s.size} bytes, handle ${s.handle})`).join(', ');
      return {
        ok: true,
        message: `${who}: ${sources.length} data source${sources.length === 1 ? '' : 's'} open: ${list}`,
        detail: { ...detail, sources },
      };
    } catch (error) {
      if (error instanceof ToolError && error.code === RpcCode.NO_PROVIDER) {
        return { ok: true, message: `${who}, but no data source is open in it: open a file in ImHex (or call imhex_open_file)`, detail };
      }
      return { ok: false, message: `${who}: ${(error as Error).message}`, detail };
    }
  }

  async close(): Promise<void> {
    await this.imhex.close();
  }
}

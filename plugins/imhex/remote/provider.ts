// The ImHex provider: each command is one JSON-RPC call to ImHex's MCP Integration server.
// ImHex's search takes plain hex, so a pattern with `??` wildcards is searched by its longest
// literal run and each hit is checked with a read; `maxResults` is applied here.
import { ToolError, type HealthReport } from '../../../src/backend/index.js';
import { anchorOf, matchesAt } from '../hex.js';
import { invalidParams } from '../errors.js';
import {
  offsetInfoResult,
  readBytesResult,
  RpcCode,
  searchResult,
  selectionResult,
  setSelectionResult,
  writeBytesResult,
} from '../protocol.js';
import type { ImHexProvider, ProviderCall, SearchRequest } from '../provider.js';
import { ImHexClient, type ImHexClientOptions } from './client.js';

export class RemoteProvider implements ImHexProvider {
  readonly kind = 'imhex';
  readonly label: string;
  readonly client: ImHexClient;

  constructor(options: ImHexClientOptions) {
    this.client = new ImHexClient(options);
    this.label = `ImHex at ${this.client.where}`;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ToolError && error.code === RpcCode.NO_PROVIDER) {
        throw new ToolError(`${error.message} — open a file in ImHex first (or set plugins.imhex.file to work on a local file)`, {
          code: error.code,
          data: error.data,
        });
      }
      throw error;
    }
  }

  getSelection(call: ProviderCall) {
    return this.call(() => this.client.call('get_selection', undefined, selectionResult, { signal: call.signal, retryOnDrop: true }));
  }

  setSelection(start_offset: number, size: number, call: ProviderCall) {
    return this.call(() =>
      this.client.call('set_selection', { start_offset, size }, setSelectionResult, { signal: call.signal, retryOnDrop: true }),
    );
  }

  readBytes(offset: number, count: number, call: ProviderCall) {
    return this.call(() => this.client.call('read_bytes', { offset, count }, readBytesResult, { signal: call.signal, retryOnDrop: true }));
  }

  writeBytes(offset: number, data: Buffer, call: ProviderCall) {
    return this.call(() =>
      this.client.call('write_bytes', { offset, data: data.toString('hex') }, writeBytesResult, { signal: call.signal }),
    );
  }

  async search(request: SearchRequest, call: ProviderCall) {
    const { pattern, start_offset, end_offset, maxResults } = request;
    const anchor = anchorOf(pattern);
    if (anchor.length === 0) throw invalidParams('pattern', 'needs at least one byte that is not ?? when searching through ImHex');
    const literal = pattern.bytes.subarray(anchor.at, anchor.at + anchor.length).toString('hex');
    const params: Record<string, unknown> = { pattern: literal, start_offset: start_offset + anchor.at };
    if (end_offset !== undefined) params.end_offset = end_offset + anchor.at;
    const found = await this.call(() => this.client.call('search', params, searchResult, { signal: call.signal, retryOnDrop: true }));
    const offsets: number[] = [];
    let truncated = false;
    for (const hit of [...found.offsets].sort((a, b) => a - b)) {
      const at = hit - anchor.at;
      if (pattern.wildcards > 0 && !(await this.matches(at, request, call))) continue;
      if (offsets.length === maxResults) {
        truncated = true;
        break;
      }
      offsets.push(at);
    }
    return truncated ? { offsets, truncated: true as const } : { offsets };
  }

  private async matches(at: number, request: SearchRequest, call: ProviderCall): Promise<boolean> {
    const n = request.pattern.bytes.length;
    const read = await this.readBytes(at, n, call);
    return read.bytes_read === n && matchesAt(Buffer.from(read.hex_data, 'hex'), 0, request.pattern);
  }

  getOffsetInfo(offset: number, call: ProviderCall) {
    return this.call(() => this.client.call('get_offset_info', { offset }, offsetInfoResult, { signal: call.signal, retryOnDrop: true }));
  }

  async health(): Promise<HealthReport> {
    const detail = { provider: 'imhex', address: this.client.where };
    try {
      const selection = await this.client.call('get_selection', undefined, selectionResult, { timeoutMs: 3_000 });
      return { ok: true, message: `ImHex reachable at ${this.client.where}`, detail: { ...detail, selection } };
    } catch (error) {
      if (error instanceof ToolError && error.code === RpcCode.NO_PROVIDER) {
        return { ok: true, message: `ImHex reachable at ${this.client.where}, but no file is open in it: open one in ImHex`, detail };
      }
      return { ok: false, message: (error as Error).message, detail };
    }
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

// What answers the imhex tools: ImHex's MCP Integration plugin over TCP, stock ImHex's own MCP
// server through `imhex --mcp`, or a local file. Arguments reach a provider
// already checked (offsets ≥ 0, counts within the limit, hex parsed); results follow the protocol.
import type { ClientInfo, HealthReport, ProgressUpdate } from '../../src/backend/index.js';
import type { FileMap, FileMapRequest } from './file-map.js';
import type { Pattern } from './hex.js';
import type { OffsetInfo, ReadBytesResult, SearchResult, Selection, SetSelectionResult, WriteBytesResult } from './protocol.js';

export interface ProviderCall {
  signal: AbortSignal;
  progress?(update: ProgressUpdate): void;
  /** Who is calling: what mcphost itself keeps (a local file's selection) is kept per client. */
  client?: ClientInfo;
}

export interface SearchRequest {
  pattern: Pattern;
  start_offset: number;
  /** Exclusive bound for where a match starts; undefined = end of data. */
  end_offset?: number;
  maxResults: number;
}

export interface ImHexProvider {
  readonly kind: 'file' | 'imhex' | 'imhex-mcp';
  /** One line for people: which file or which ImHex. */
  readonly label: string;
  getSelection(call: ProviderCall): Promise<Selection>;
  setSelection(start: number, size: number, call: ProviderCall): Promise<SetSelectionResult>;
  readBytes(offset: number, count: number, call: ProviderCall): Promise<ReadBytesResult>;
  writeBytes(offset: number, data: Buffer, call: ProviderCall): Promise<WriteBytesResult>;
  search(request: SearchRequest, call: ProviderCall): Promise<SearchResult>;
  getOffsetInfo(offset: number, call: ProviderCall): Promise<OffsetInfo>;
  /** Entropy and byte classes per block; only where all the data can be read fast (a local file). */
  fileMap?(request: FileMapRequest, call: ProviderCall): Promise<FileMap>;
  health(): Promise<HealthReport>;
  /** Idempotent. */
  close(): Promise<void>;
}

// The embedded provider: the six commands on a local file, through one file handle with
// positional reads and writes. Nothing loads the whole file; offsets go up to
// Number.MAX_SAFE_INTEGER. Opened read-only unless `writable`; writes never grow the file unless
// `allowGrow`, are checked before any byte is written, and are fsync'ed before success.
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UnavailableError, type HealthReport } from '../../../src/backend/index.js';
import { invalidParams, notWritable } from '../errors.js';
import { addressString, selectionOf, type Selection } from '../protocol.js';
import type { ImHexProvider, ProviderCall, SearchRequest } from '../provider.js';
import { chunkedSearch } from './search.js';

export interface FileProviderOptions {
  file: string;
  writable: boolean;
  allowGrow: boolean;
  chunkBytes: number;
  /** Searches over at least this many bytes report progress. */
  progressMinBytes?: number;
}

/** Selections live in memory, one per file (by absolute path), for the life of the process. */
const selections = new Map<string, { start: number; size: number }>();

export class FileProvider implements ImHexProvider {
  readonly kind = 'file';
  readonly label: string;
  private readonly o: FileProviderOptions;
  private readonly key: string;
  private handle?: Promise<FileHandle>;

  constructor(options: FileProviderOptions) {
    this.o = options;
    this.key = path.resolve(options.file);
    this.label = `file ${this.key} (${options.writable ? `writable${options.allowGrow ? ', may grow' : ''}` : 'read-only'})`;
  }

  /** Opens the file once; a failure is reported as unavailable and retried on the next call. */
  fileHandle(): Promise<FileHandle> {
    this.handle ??= this.open().catch((error: NodeJS.ErrnoException) => {
      this.handle = undefined;
      throw new UnavailableError(
        `cannot open ${this.key}${this.o.writable ? ' for writing' : ''}: ${error.code ?? error.message} — ${openHint(error, this.o.writable)}`,
        {
          cause: error,
          data: { file: this.key, reason: error.code },
        },
      );
    });
    return this.handle;
  }

  private async open(): Promise<FileHandle> {
    const fh = await open(this.key, this.o.writable ? 'r+' : 'r');
    if (!(await fh.stat()).isFile()) {
      await fh.close();
      throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    }
    return fh;
  }

  private async size(): Promise<number> {
    return (await (await this.fileHandle()).stat()).size;
  }

  async getSelection(): Promise<Selection> {
    await this.fileHandle();
    const s = selections.get(this.key);
    return selectionOf(s?.start ?? null, s?.size ?? 0);
  }

  async setSelection(start: number, size: number) {
    const total = await this.size();
    if (start + size > total) {
      throw invalidParams(
        size === 0 ? 'start_offset' : 'size',
        `the selection ${start}+${size} runs past the end of the data (${total} bytes)`,
        { dataSize: total },
      );
    }
    if (size === 0) selections.delete(this.key);
    else selections.set(this.key, { start, size });
    return { status: 'success' as const, start_offset: start, size };
  }

  async readBytes(offset: number, count: number) {
    const fh = await this.fileHandle();
    const buffer = Buffer.alloc(count);
    const got = count === 0 ? 0 : await readFully(fh, buffer, count, offset);
    return { offset, count, bytes_read: got, hex_data: buffer.toString('hex', 0, got) };
  }

  async writeBytes(offset: number, data: Buffer, call: ProviderCall) {
    if (!this.o.writable) throw notWritable(`${this.key} is open read-only; set plugins.imhex.writable: true to allow write_bytes`);
    const fh = await this.fileHandle();
    const total = (await fh.stat()).size;
    const end = offset + data.length;
    if (offset > total || (end > total && !this.o.allowGrow)) {
      const how = this.o.allowGrow
        ? 'a write may extend the file but must start at or before its end'
        : 'writes never grow the file unless plugins.imhex.allowGrow is true';
      throw invalidParams('offset', `writing ${data.length} bytes at ${offset} runs past the end of the data (${total} bytes): ${how}`, {
        dataSize: total,
      });
    }
    if (end > Number.MAX_SAFE_INTEGER) throw invalidParams('offset', 'the write would end past Number.MAX_SAFE_INTEGER');
    call.signal.throwIfAborted();
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await fh.write(data, written, data.length - written, offset + written);
      written += bytesWritten;
    }
    await fh.sync();
    return { offset, bytes_written: written, status: 'success' as const };
  }

  async search(request: SearchRequest, call: ProviderCall) {
    const fh = await this.fileHandle();
    const size = (await fh.stat()).size;
    const end = Math.min(request.end_offset ?? size, size);
    const total = end - request.start_offset;
    const report = call.progress && total >= (this.o.progressMinBytes ?? 64 * 1024 * 1024);
    const result = await chunkedSearch((buf, len, pos) => readFully(fh, buf, len, pos), request.pattern, {
      start: request.start_offset,
      end,
      size,
      maxResults: request.maxResults,
      chunkBytes: this.o.chunkBytes,
      signal: call.signal,
      progressEvery: Math.max(this.o.chunkBytes, Math.floor(total / 100)),
      onProgress: report
        ? ({ done, total: all }) => call.progress!({ progress: done, total: all, message: `searched ${done} of ${all} bytes` })
        : undefined,
    });
    return result.truncated ? { offsets: result.offsets, truncated: true as const } : { offsets: result.offsets };
  }

  async getOffsetInfo(offset: number) {
    await this.fileHandle();
    return { offset, address_str: addressString(offset) };
  }

  async health(): Promise<HealthReport> {
    try {
      const st = await stat(this.key);
      if (!st.isFile())
        return {
          ok: false,
          message: `${this.key} is not a regular file — set plugins.imhex.file (or --file) to a file`,
          detail: { provider: 'file', file: this.key },
        };
      await (await open(this.key, this.o.writable ? 'r+' : 'r')).close();
      return {
        ok: true,
        message: `serving ${this.label}, ${st.size} bytes`,
        detail: { provider: 'file', file: this.key, size: st.size, writable: this.o.writable },
      };
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      return {
        ok: false,
        message: `cannot open ${this.key}: ${e.code ?? e.message} — ${openHint(e, this.o.writable)}`,
        detail: { provider: 'file', file: this.key },
      };
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close().catch(() => undefined);
  }
}

function openHint(error: NodeJS.ErrnoException, writable: boolean): string {
  if (error.code === 'ENOENT') return 'set plugins.imhex.file (or pass --file) to an existing file';
  if (error.code === 'EISDIR') return 'plugins.imhex.file names a folder or device; name a regular file';
  if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS') {
    return writable
      ? 'the file is not writable by this user; fix its permissions or set plugins.imhex.writable: false'
      : 'the file is not readable by this user';
  }
  return 'check plugins.imhex.file';
}

/** Reads until `length` bytes or the end of the file. */
async function readFully(fh: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

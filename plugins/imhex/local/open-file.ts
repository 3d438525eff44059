// The served file, opened once and checked before every use: the path is stat'ed and its device
// and inode compared with the open handle's. A file deleted under the path is reported (no write
// ever goes into an unlinked inode); a file replaced at the path (a new inode: an editor's save,
// a rebuild, `mv new old`) is opened afresh, so a read never returns the old file's bytes.
import { stat, type FileHandle } from 'node:fs/promises';
import { ToolError, UnavailableError, type Logger } from '../../../src/backend/index.js';
import { NotRegularFileError, openRegularFile } from '../../../src/kit/index.js';

export interface OpenedFile {
  fh: FileHandle;
  /** Device and inode as decimal strings (a bigint stat; inode numbers can pass 2^53). */
  dev: string;
  ino: string;
}

export class ServedFile {
  readonly path: string;
  private readonly writable: boolean;
  private readonly logger?: Logger;
  private opened?: Promise<OpenedFile>;
  /** Handles of replaced files, closed once no operation is using them. */
  private retired: FileHandle[] = [];
  private inUse = 0;
  /** Once opened, a missing file is reported as deleted, not as a wrong setting. */
  private everOpened = false;

  constructor(path: string, writable: boolean, logger?: Logger) {
    this.path = path;
    this.writable = writable;
    this.logger = logger;
  }

  /** Runs `fn` on the current file (see `current`); a replaced file's handle stays open until no `fn` runs. */
  async use<T>(fn: (file: OpenedFile) => Promise<T>): Promise<T> {
    this.inUse++;
    try {
      return await fn(await this.current());
    } finally {
      if (--this.inUse === 0 && this.retired.length) {
        const handles = this.retired;
        this.retired = [];
        await Promise.all(handles.map((fh) => fh.close().catch(() => undefined)));
      }
    }
  }

  /** The open file, (re)opened when needed; checked against the path on every call. */
  async current(): Promise<OpenedFile> {
    const opened = await this.handle();
    let now;
    try {
      now = await stat(this.path, { bigint: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw this.unavailable(error as NodeJS.ErrnoException);
      this.forget();
      throw this.deleted();
    }
    if (String(now.dev) === opened.dev && String(now.ino) === opened.ino) return opened;
    this.logger?.info(`${this.path} was replaced by another file; opening the new one`);
    this.forget();
    return this.handle();
  }

  /** Opens the file once; a failure is reported as unavailable and retried on the next call. */
  handle(): Promise<OpenedFile> {
    this.opened ??= this.open().then(
      (opened) => {
        this.everOpened = true;
        return opened;
      },
      (error: NodeJS.ErrnoException) => {
        this.opened = undefined;
        if (error.code === 'ENOENT' && this.everOpened) throw this.deleted();
        throw error instanceof ToolError ? error : this.unavailable(error);
      },
    );
    return this.opened;
  }

  private async open(): Promise<OpenedFile> {
    // A FIFO, socket or device is refused by its type before anything waits on it.
    const fh = await openRegularFile(this.path, this.writable ? 'r+' : 'r');
    const st = await fh.stat({ bigint: true });
    return { fh, dev: String(st.dev), ino: String(st.ino) };
  }

  /** Drops the current handle; `use` closes it once no operation is using it. */
  private forget(): void {
    const old = this.opened;
    this.opened = undefined;
    void old?.then((o) => void this.retired.push(o.fh)).catch(() => undefined);
  }

  private deleted(): UnavailableError {
    return new UnavailableError(
      `${this.path} was deleted or moved after mcphost opened it: nothing was read or written — put the file back, or set plugins.imhex.file to where it is now`,
      { data: { file: this.path, reason: 'DELETED' } },
    );
  }

  private unavailable(error: NodeJS.ErrnoException): UnavailableError {
    if (error instanceof NotRegularFileError) return notRegular(error, this.path);
    return new UnavailableError(
      `cannot open ${this.path}${this.writable ? ' for writing' : ''}: ${error.code ?? error.message} — ${openHint(error, this.writable)}`,
      { cause: error, data: { file: this.path, reason: error.code } },
    );
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    const handles = [...this.retired, (await opened?.catch(() => undefined))?.fh];
    this.retired = [];
    await Promise.all(handles.map((fh) => fh?.close().catch(() => undefined)));
  }
}

/** The served path is a FIFO, socket, device or folder: a wrong setting, said as one. */
export function notRegular(error: NotRegularFileError, file: string): UnavailableError {
  return new UnavailableError(
    `cannot open ${file}: it is a ${error.kind}, not a regular file — set plugins.imhex.file (or --file) to a regular file`,
    { cause: error, data: { file, reason: error.code, kind: error.kind } },
  );
}

export function openHint(error: NodeJS.ErrnoException, writable: boolean): string {
  if (error.code === 'ENOENT') return 'set plugins.imhex.file (or pass --file) to an existing file';
  if (error.code === 'EISDIR') return 'plugins.imhex.file names a folder; name a regular file';
  if (error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS') {
    return writable
      ? 'the file is not writable by this user; fix its permissions or set plugins.imhex.writable: false'
      : 'the file is not readable by this user';
  }
  return 'check plugins.imhex.file';
}

/** Reads until `length` bytes or the end of the file. */
export async function readFully(fh: FileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

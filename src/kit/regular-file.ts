// Opening a file a user (or a folder someone else prepared) names, refusing anything but a regular
// file by its type. Opening a FIFO for reading blocks until a writer comes, a device may block or
// act on open, and a blocked open() holds a libuv thread that the process then waits for at exit:
// one such path used to hang a call and keep the host from exiting. So the type is checked with
// stat (which never blocks) before opening, the open itself is non-blocking (a path swapped for a
// FIFO in between still returns at once), and the opened handle is checked again.
import { constants, fstatSync, openSync, closeSync, readFileSync, statSync, type Stats, type BigIntStats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

/** What a path is when it is not a regular file. */
export type FileKind =
  'directory' | 'FIFO (named pipe)' | 'socket' | 'character device' | 'block device' | 'symbolic link' | 'special file';

/** The path names something other than a regular file. Not an errno: nothing failed, the type is refused. */
export class NotRegularFileError extends Error {
  readonly code = 'NOT_A_REGULAR_FILE';
  readonly path: string;
  readonly kind: FileKind;
  constructor(file: string, kind: FileKind) {
    super(`${file} is a ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
    this.path = file;
    this.kind = kind;
  }
}

export function fileKind(st: Stats | BigIntStats): FileKind | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'FIFO (named pipe)';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  if (st.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

// O_NONBLOCK changes nothing for a regular file's reads and writes; it only keeps open() from waiting.
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const FLAGS = { r: constants.O_RDONLY, 'r+': constants.O_RDWR } as const;

function refuse(file: string, st: Stats | BigIntStats): void {
  const kind = fileKind(st);
  if (kind) throw new NotRegularFileError(file, kind);
}

/** Opens a regular file (`r` or `r+`); anything else is refused with NotRegularFileError, at once. */
export async function openRegularFile(file: string, mode: 'r' | 'r+' = 'r'): Promise<FileHandle> {
  refuse(file, await stat(file));
  const fh = await open(file, FLAGS[mode] | NONBLOCK);
  try {
    refuse(file, await fh.stat());
    return fh;
  } catch (error) {
    await fh.close().catch(() => undefined);
    throw error;
  }
}

/** `readFile` for a path that must be a regular file. */
export async function readRegularFile(file: string): Promise<Buffer>;
export async function readRegularFile(file: string, encoding: BufferEncoding): Promise<string>;
export async function readRegularFile(file: string, encoding?: BufferEncoding): Promise<string | Buffer> {
  const fh = await openRegularFile(file);
  try {
    return encoding ? await fh.readFile({ encoding }) : await fh.readFile();
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** `readFileSync` for a path that must be a regular file. */
export function readRegularFileSync(file: string): Buffer;
export function readRegularFileSync(file: string, encoding: BufferEncoding): string;
export function readRegularFileSync(file: string, encoding?: BufferEncoding): string | Buffer {
  refuse(file, statSync(file));
  const fd = openSync(file, constants.O_RDONLY | NONBLOCK);
  try {
    refuse(file, fstatSync(fd));
    return encoding ? readFileSync(fd, { encoding }) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

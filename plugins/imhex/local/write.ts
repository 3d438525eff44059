// write_bytes on a local file, all or nothing as far as mcphost can make it: the bytes about to be
// overwritten are read first, the new bytes written and fsync'ed, and when anything fails (a full
// disk, a file-size limit, an I/O error) the original bytes are written back (and a grown file cut
// back to its size) and fsync'ed again. The error says which of the two the file is now: as before,
// or changed in a named range because the restore failed too. A crash of the whole machine between
// the write and the restore is the one case this cannot cover.
import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '../../../src/backend/index.js';
import { RpcCode } from '../protocol.js';
import { readFully } from './open-file.js';

export interface WriteOutcome {
  bytes_written: number;
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

export async function writeAllOrNothing(fh: FileHandle, file: string, offset: number, data: Buffer, size: number): Promise<WriteOutcome> {
  const overlap = Math.max(0, Math.min(size, offset + data.length) - offset);
  const original = Buffer.alloc(overlap);
  if ((await readFully(fh, original, overlap, offset)) < overlap) {
    throw new ToolError(`${file} shrank while write_bytes was preparing: nothing was written, the file is unchanged; try again`, {
      code: RpcCode.INTERNAL_ERROR,
      data: { file, file_changed: false },
    });
  }
  let written = 0;
  try {
    while (written < data.length) {
      const { bytesWritten } = await fh.write(data, written, data.length - written, offset + written);
      if (bytesWritten === 0) throw Object.assign(new Error('the system wrote 0 bytes'), { code: 'EIO' });
      written += bytesWritten;
    }
    await fh.sync();
    return { bytes_written: written };
  } catch (error) {
    const restoreError = written > 0 ? await restore(fh, offset, original, written, size) : undefined;
    throw failure(error as NodeJS.ErrnoException, { file, offset, requested: data.length, written, restoreError });
  }
}

/** Writes back what was overwritten and cuts off what was appended; undefined when that worked. */
async function restore(fh: FileHandle, offset: number, original: Buffer, written: number, size: number): Promise<Error | undefined> {
  try {
    const back = Math.min(written, original.length);
    let done = 0;
    while (done < back) {
      const { bytesWritten } = await fh.write(original, done, back - done, offset + done);
      if (bytesWritten === 0) throw Object.assign(new Error('the system wrote 0 bytes'), { code: 'EIO' });
      done += bytesWritten;
    }
    if ((await fh.stat()).size > size) await fh.truncate(size);
    await fh.sync();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

function failure(
  error: NodeJS.ErrnoException,
  f: { file: string; offset: number; requested: number; written: number; restoreError?: Error },
): ToolError {
  const why = error.code ? `${error.code}: ${error.message.replace(/^[A-Z]+: /, '')}` : error.message;
  const at = `at ${hex(f.offset)}`;
  const changed = f.restoreError !== undefined;
  let message: string;
  if (f.written === 0 && !changed) message = `write_bytes failed ${at} before any byte was written (${why}): ${f.file} is unchanged`;
  else if (!changed)
    message = `write_bytes failed ${at} after ${f.written} of ${f.requested} bytes (${why}); the original bytes were written back: ${f.file} is unchanged`;
  else {
    const code = (f.restoreError as NodeJS.ErrnoException).code ?? f.restoreError!.message;
    message =
      `write_bytes failed ${at} after ${f.written} of ${f.requested} bytes (${why}), and writing the original bytes back failed too (${code}): ` +
      `${f.file} IS CHANGED in ${hex(f.offset)}–${hex(f.offset + f.written - 1)}`;
  }
  return new ToolError(message, {
    code: RpcCode.INTERNAL_ERROR,
    cause: error,
    data: {
      file: f.file,
      offset: f.offset,
      bytes_requested: f.requested,
      bytes_written: f.written,
      file_changed: changed,
      reason: error.code,
    },
  });
}

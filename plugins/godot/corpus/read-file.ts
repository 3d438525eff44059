// Reads one class file of a doc folder someone else may have prepared. A FIFO or device under an
// `.xml` name must not block the thread that reads it (a blocked read in a parse worker kept the
// host from exiting): the open is non-blocking and the type is checked on the open handle. Kept
// here rather than taken from mcphost/kit so the parse workers do not load the kit's MCP client.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

export function readClassFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file (a FIFO, socket, device or folder)`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

// Writes a config file whole or not at all: to a temporary file beside it, then renamed over it,
// so a crash or a full disk never leaves a half-written config for mcphost or a client to read.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `private`: the file (and a folder it creates) readable by the user alone (0600 / 0700). */
export function writeFileAtomic(file: string, text: string, options: { private?: boolean } = {}): void {
  mkdirSync(path.dirname(file), { recursive: true, ...(options.private && { mode: 0o700 }) });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text, { flush: true, ...(options.private && { mode: 0o600 }) });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

// A file written whole or not at all: write-file-atomic writes a temporary file beside the target
// and renames it over it, so a crash, a full disk or a second writer never leaves a half-written
// file for a reader. The folder is created first (private when the file is).
import { closeSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type writeFileAtomicModule from 'write-file-atomic';

// write-file-atomic (with signal-exit) loads on the first write: ~12 ms that a one-shot `call`, which
// writes nothing, need not pay at start-up (bench/startup.bench.js).
let loaded: typeof writeFileAtomicModule | undefined;
const writeFileAtomicLib = (): typeof writeFileAtomicModule =>
  (loaded ??= createRequire(import.meta.url)('write-file-atomic') as typeof writeFileAtomicModule);

export interface AtomicWriteOptions {
  /** The file (and a folder it creates) readable by the user alone: 0600 / 0700. */
  private?: boolean;
  /** Flush to disk before the rename (default true); a cache that can be rebuilt may skip it. */
  fsync?: boolean;
}

function fileOptions(options: AtomicWriteOptions): writeFileAtomicModule.Options {
  return { fsync: options.fsync ?? true, ...(options.private && { mode: 0o600 }) };
}

function folderOptions(options: AtomicWriteOptions): { recursive: true; mode?: number } {
  return { recursive: true, ...(options.private && { mode: 0o700 }) };
}

export async function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<void> {
  await mkdir(path.dirname(file), folderOptions(options));
  await writeFileAtomicLib()(file, data, fileOptions(options));
}

export function writeFileAtomicSync(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  mkdirSync(path.dirname(file), folderOptions(options));
  writeFileAtomicLib().sync(file, data, fileOptions(options));
}

export interface StagedFile {
  /** Puts the staged file in place of the target. */
  commit(): void;
  /** Removes the staged file if it was not committed. */
  discard(): void;
}

/**
 * A file written through its descriptor (too large to hold as one string) beside its target, put in
 * place only by `commit()`: several files staged first and committed together are never seen half
 * written, one without the other only between two renames.
 */
export function stageFileSync(file: string, write: (fd: number) => void): StagedFile {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    write(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  let done = false;
  return {
    commit() {
      renameSync(temp, file);
      done = true;
    },
    discard() {
      if (!done) rmSync(temp, { force: true });
    },
  };
}

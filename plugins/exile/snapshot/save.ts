// Writes a snapshot document atomically: a temporary file beside the target, then a rename, so an
// interrupted recording never leaves a half-written snapshot.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { SnapshotDocument } from './format.js';

export async function saveSnapshot(file: string, doc: SnapshotDocument): Promise<number> {
  const text = JSON.stringify(doc);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return Buffer.byteLength(text);
}

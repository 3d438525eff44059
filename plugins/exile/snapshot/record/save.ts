// Writes a snapshot document atomically (the kit's writer), so an interrupted recording never
// leaves a half-written snapshot.
import { writeFileAtomic } from '../../../../src/kit/index.js';
import type { SnapshotDocument } from '../format.js';

export async function saveSnapshot(file: string, doc: SnapshotDocument): Promise<number> {
  const text = JSON.stringify(doc);
  await writeFileAtomic(file, text);
  return Buffer.byteLength(text);
}

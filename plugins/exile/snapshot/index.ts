// Offline mode of the exile plugin: explore / eval / query answered from a recorded snapshot, and
// the recorder that makes one from the live HUD. The exile plugin imports this only when
// `plugins.exile.snapshot` is set. The public surface is this list.
import { existsSync } from 'node:fs';
import { UnavailableError } from '../../../src/backend/index.js';
import type { ExileProvider } from '../provider.js';
import { loadSnapshot } from './serve/load.js';
import { openPool, poolAvailable, type PoolOptions } from './serve/pool.js';
import { createSnapshotProvider, type SnapshotOptions } from './serve/provider.js';

export type { SnapshotOptions } from './serve/provider.js';
export { type PoolOptions } from './serve/pool.js';
export { createSnapshotProvider } from './serve/provider.js';
export { loadSnapshot, parseSnapshot } from './serve/load.js';
export { recordSnapshot } from './record/record.js';
export { saveSnapshot } from './record/save.js';

/**
 * Loads `file` and serves the three tools from it; a missing or invalid file is an UNAVAILABLE error.
 * Evaluation runs in worker threads (pool.ts) once compiled; the TypeScript sources (tests) evaluate
 * in the calling thread.
 */
export async function openSnapshotProvider(file: string, options: SnapshotOptions & PoolOptions = {}): Promise<ExileProvider> {
  if (options.workers !== 0 && poolAvailable()) {
    if (!existsSync(file))
      throw new UnavailableError(`snapshot ${file} does not exist: record one with \`mcphost exile:snapshot --out ${file}\``);
    return openPool(file, options);
  }
  try {
    return createSnapshotProvider(await loadSnapshot(file), options);
  } catch (error) {
    throw new UnavailableError((error as Error).message, { cause: error });
  }
}

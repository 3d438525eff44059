// Offline provider: answers explore / eval / query from a recorded snapshot file.
// Placeholder until the snapshot issue lands; the exile plugin imports it only when `snapshot` is set.
import { ToolError } from '../../../src/backend/index.js';
import type { ExileProvider } from '../provider.js';

export interface SnapshotOptions {
  /** Time budget per call in milliseconds (default 2000). */
  timeBudgetMs?: number;
}

export async function openSnapshotProvider(file: string, _options: SnapshotOptions = {}): Promise<ExileProvider> {
  throw new ToolError(`cannot serve snapshot ${file}: snapshot mode is not implemented yet`, { code: 'UNAVAILABLE' });
}

// Messages between the snapshot pool (pool.ts) and its evaluation threads (eval-worker.ts).
import type { ToolErrorCode } from '../../../../src/backend/index.js';
import type { HudCall } from '../../remote.js';

/** What each thread is started with. */
export interface EvalWorkerData {
  file: string;
  timeBudgetMs?: number;
}

export type PoolRequest = HudCall & {
  id: number;
  /** One Int32 the main thread sets to 1 to stop the call (cancel, timeout). */
  cancel: SharedArrayBuffer;
};

/** id 0 answers the load: `ok: 'ready'`, or the error that kept the snapshot from loading. */
export type PoolReply =
  { id: number; ok: unknown } | { id: number; error: { message: string; code: ToolErrorCode; data?: unknown; name?: string } };

// What answers the three exile tools: the live HUD (remote) or a recorded snapshot (offline).
import type { ProgressUpdate } from '../../src/backend/index.js';
import type { EvalArgs, ExploreArgs, QueryArgs } from './schemas.js';

export interface ProviderCallContext {
  signal: AbortSignal;
  /** Polled while a snapshot evaluation runs: true stops it (an evaluation thread cannot see `signal`). */
  cancelled?: () => boolean;
  progress?(update: ProgressUpdate): void;
}

export interface ExileProvider {
  /** Results follow the HUD's response shapes (path, type, value, members[], methods[]). */
  explore(args: ExploreArgs, ctx: ProviderCallContext): Promise<unknown>;
  eval(args: EvalArgs, ctx: ProviderCallContext): Promise<unknown>;
  query(args: QueryArgs, ctx: ProviderCallContext): Promise<unknown>;
  close(): Promise<void>;
}

// The offline ExileProvider: the three HUD tools answered from a loaded snapshot, each call with its
// own time budget. Read-only by construction: nothing here writes to the snapshot or to disk.
import { ToolError } from '../../../../src/backend/index.js';
import type { ExileProvider, ProviderCallContext } from '../../provider.js';
import type { EvalArgs, ExploreArgs, QueryArgs } from '../../schemas.js';
import { Budget, DEFAULT_TIME_BUDGET_MS, MAX_RESULT_VALUES, OutputCap } from './eval/budget.js';
import { compileExpr } from './eval/compile.js';
import { explore } from './explore.js';
import { ExprError } from './lang/errors.js';
import { parse } from './lang/parser.js';
import { query } from './query.js';
import { serialize } from './serialize.js';
import type { Snapshot } from './snapshot.js';

export interface SnapshotOptions {
  /** Time budget per call in milliseconds (default 2000). */
  timeBudgetMs?: number;
  /** Values one answer may carry before it is refused (default 200,000). */
  maxResultValues?: number;
}

/** An expression error as a tool error: the message keeps the position, `data` repeats it. */
function toToolError(error: unknown, clause?: string, expression?: string): unknown {
  if (!(error instanceof ExprError)) return error;
  return new ToolError(clause ? `${clause}: ${error.message}` : error.message, {
    code: error.code,
    data: { position: error.position, ...(clause ? { clause } : {}), ...(expression !== undefined ? { expression } : {}) },
    cause: error,
  });
}

export function createSnapshotProvider(snapshot: Snapshot, options: SnapshotOptions = {}): ExileProvider {
  const budgetMs = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const maxValues = options.maxResultValues ?? MAX_RESULT_VALUES;
  const budget = (ctx: ProviderCallContext) => {
    const b = new Budget(budgetMs, ctx.signal, ctx.cancelled);
    b.check();
    return b;
  };
  const cap = () => new OutputCap(maxValues);
  return {
    async explore(args: ExploreArgs, ctx: ProviderCallContext) {
      return explore(snapshot, args, { budget: budget(ctx), cap: cap() }, (e) => toToolError(e, 'target', args.target));
    },
    async eval(args: EvalArgs, ctx: ProviderCallContext) {
      const b = budget(ctx);
      try {
        const value = compileExpr(parse(args.expr), { snapshot, budget: b })({});
        return serialize(value, args.depth, { snapshot, budget: b, cap: cap() });
      } catch (error) {
        throw toToolError(error, undefined, args.expr);
      }
    },
    async query(args: QueryArgs, ctx: ProviderCallContext) {
      return query(snapshot, args, { budget: budget(ctx), cap: cap() }, toToolError);
    },
    async close() {
      // Nothing to release: the snapshot is plain memory.
    },
  };
}

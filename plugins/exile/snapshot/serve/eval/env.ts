// What compiled expressions run against: the snapshot, the call's budget, and the scope (`it` and
// lambda parameters) of the element being looked at.
import type { Value } from '../../model.js';
import type { Snapshot } from '../snapshot.js';
import type { Budget } from './budget.js';

export interface Env {
  snapshot: Snapshot;
  budget: Budget;
}

export interface Scope {
  /** The element in a query clause or predicate; undefined at the top of eval. */
  it?: Value;
  vars?: Record<string, Value>;
}

export type Fn = (scope: Scope) => Value;

// query: Dynamic LINQ over a collection. Order of operations: where → orderBy → skip → take →
// select. A single-value select with no where counts the items per value instead (the HUD's
// "count entities by type"); orderBy then sorts those groups by Key or Count.
import { ToolError } from '../../../../src/backend/index.js';
import type { QueryArgs } from '../../schemas.js';
import type { Budget, OutputCap } from './eval/budget.js';
import { compileExpr } from './eval/compile.js';
import type { Env, Fn } from './eval/env.js';
import { orderCompare, truthy } from './eval/ops.js';
import { parse, parseOrderBy } from './lang/parser.js';
import { DictValue, EnumValue, ListValue, elementsOf, isCollection, typeLabel, type ObjectValue, type Value } from '../model.js';
import { serialize } from './serialize.js';
import type { Snapshot } from './snapshot.js';

/** Levels of each result item shown (a projected Position still shows X, Y, Z). */
const QUERY_ITEM_DEPTH = 2;

type Clause = 'from' | 'where' | 'select' | 'orderBy';
type WrapError = (error: unknown, clause: Clause, expression: string) => unknown;

export function query(snapshot: Snapshot, args: QueryArgs, limits: { budget: Budget; cap: OutputCap }, wrapError: WrapError): unknown {
  const { budget } = limits;
  const env: Env = { snapshot, budget };
  const guard = <T>(clause: Clause, expression: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw wrapError(error, clause, expression);
    }
  };
  const source = guard('from', args.from, () => compileExpr(parse(args.from), env)({}));
  if (!isCollection(source)) {
    throw new ToolError(`from: ${args.from} is ${typeLabel(source)}, not a collection`, {
      code: 'INVALID_ARGUMENT',
      data: { clause: 'from' },
    });
  }
  const whereNode = args.where?.trim() ? guard('where', args.where, () => parse(args.where!)) : undefined;
  const where = whereNode ? compileExpr(whereNode, env) : undefined;
  const selectNode = args.select?.trim() ? guard('select', args.select, () => parse(args.select!)) : undefined;
  const select = selectNode ? compileExpr(selectNode, env) : undefined;
  const orderings = args.orderBy?.trim() ? guard('orderBy', args.orderBy, () => parseOrderBy(args.orderBy!)) : [];
  const order = orderings.map((o) => ({ key: compileExpr(o.expr, env), descending: o.descending, pos: o.expr.pos }));

  let items = elementsOf(source);
  if (where) {
    const kept: Value[] = [];
    guard('where', args.where!, () => {
      for (const it of items) {
        budget.tick();
        if (truthy(where({ it }), 'the predicate', whereNode!.pos)) kept.push(it);
      }
    });
    items = kept;
  }
  const grouped = select !== undefined && where === undefined && selectNode?.type !== 'New';
  if (grouped) items = guard('select', args.select!, () => groupCounts(items, select, budget));
  if (order.length > 0) items = guard('orderBy', args.orderBy!, () => sortBy(items, order, budget));
  const total = items.length;
  items = items.slice(args.skip, args.skip + args.take);
  if (select && !grouped) {
    const projected: Value[] = [];
    guard('select', args.select!, () => {
      for (const it of items) {
        budget.tick();
        projected.push(select({ it }));
      }
    });
    items = projected;
  }
  const ctx = { snapshot, budget, cap: limits.cap };
  const out: Record<string, unknown> = { from: args.from, total, items: items.map((v) => serialize(v, QUERY_ITEM_DEPTH, ctx)) };
  if (grouped) out.grouped = true;
  const recorded = source instanceof ListValue ? source.items.length : (source as DictValue).map.size;
  if (recorded < source.count) Object.assign(out, { partial: true, recorded, count: source.count });
  return out;
}

function groupCounts(items: Value[], select: Fn, budget: Budget): Value[] {
  const groups = new Map<unknown, { Key: Value; Count: number }>();
  for (const it of items) {
    budget.tick();
    const key = select({ it });
    const id = groupKey(key);
    const g = groups.get(id);
    if (g) g.Count++;
    else groups.set(id, { Key: key, Count: 1 });
  }
  return [...groups.values()].sort((a, b) => b.Count - a.Count || orderCompare(a.Key, b.Key, 0)) as unknown as ObjectValue[];
}

/** Groups by value: primitives by themselves, enums by name, objects by identity. */
function groupKey(v: Value): unknown {
  return v instanceof EnumValue ? `enum:${v.type}:${v.value}` : v;
}

function sortKey(v: Value): Value {
  return v instanceof EnumValue ? v.value : v;
}

function sortBy(items: Value[], order: Array<{ key: Fn; descending: boolean; pos: number }>, budget: Budget): Value[] {
  // Enums sort by their number: turning them into numbers up front keeps the comparator on its fast path.
  const keyed = items.map((it) => {
    budget.tick();
    return { it, keys: order.map((o) => sortKey(o.key({ it }))) };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const c = orderCompare(a.keys[i], b.keys[i], order[i].pos);
      if (c !== 0) return order[i].descending ? -c : c;
    }
    return 0;
  });
  budget.check();
  return keyed.map((k) => k.it);
}

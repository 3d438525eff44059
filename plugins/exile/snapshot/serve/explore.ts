// explore: "" lists the roots; a path lists the value's members (kind, type, value, access) to
// `depth`, collections as count + first `limit` items; `type:<Name>` gives the recorded type
// metadata; `search:<glob>` matches type names and member names.
import { NotFoundError, ToolError } from '../../../../src/backend/index.js';
import type { ExploreArgs } from '../../schemas.js';
import type { Budget, OutputCap } from './eval/budget.js';
import { compileExpr } from './eval/compile.js';
import { toText } from './eval/ops.js';
import { HUD_ROOTS, type MemberInfo, type TypeInfo } from '../format.js';
import { parse } from './lang/parser.js';
import {
  DictValue,
  EnumValue,
  ListValue,
  hasMember,
  isObject,
  memberKeys,
  typeOf,
  typeLabel,
  type ObjectValue,
  type Value,
} from '../model.js';
import { serialize, structValue, type SerializeContext } from './serialize.js';
import type { Snapshot } from './snapshot.js';
import { searchTypes } from './search.js';

/** Methods that work offline; every other recorded method is listed with `available: false`. */
const OFFLINE_METHODS = new Set(['GetComponent', 'HasComponent', 'ToString', 'GetHashCode', 'Equals']);

interface Ctx extends SerializeContext {
  includePrivate: boolean;
  limit: number;
}

export function explore(
  snapshot: Snapshot,
  args: ExploreArgs,
  limits: { budget: Budget; cap: OutputCap },
  wrapError: (e: unknown) => unknown,
): unknown {
  const target = args.target.trim();
  const { budget } = limits;
  const ctx: Ctx = { snapshot, budget, cap: limits.cap, includePrivate: args.includePrivate, limit: args.limit };
  if (target === '') return listRoots(ctx);
  if (target.startsWith('type:')) return typeView(snapshot, target.slice(5).trim(), args.includePrivate);
  if (target.startsWith('search:')) return searchTypes(snapshot, target.slice(7).trim(), args, budget);
  let value: Value;
  try {
    value = compileExpr(parse(target), { snapshot, budget })({});
  } catch (error) {
    throw wrapError(error);
  }
  return { path: target, ...describe(value, args.depth, ctx, []) };
}

function listRoots(ctx: Ctx) {
  const names = [...new Set([...HUD_ROOTS, ...ctx.snapshot.roots.keys()])];
  const members = names.map((name) => {
    const v = ctx.snapshot.roots.get(name);
    if (v === undefined) return { name, kind: 'root', available: false };
    return { name, kind: 'root', type: typeOf(v), ...valueFields(v, 0, ctx, []) };
  });
  return { path: '', members };
}

/** The explored value itself: type, value or count, and its members / items to `depth`. */
function describe(v: Value, depth: number, ctx: Ctx, ancestors: ObjectValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = { type: typeOf(v), ...valueFields(v, depth, ctx, ancestors) };
  if (isObject(v) && depth >= 1 && !v.$truncated && v.$type !== undefined) {
    const methods = ctx.snapshot
      .methods(v.$type)
      .filter((m) => ctx.includePrivate || m.access === 'public')
      .map((m) => ({
        name: m.name,
        signature: m.signature,
        access: m.access,
        ...(OFFLINE_METHODS.has(m.name.replace(/<.*$/, '')) ? {} : { available: false }),
      }));
    out.methods = methods;
  }
  return out;
}

/** `value`, or `count` (+ `items`), or `members`, for a value with `depth` levels left to show. */
function valueFields(v: Value, depth: number, ctx: Ctx, ancestors: ObjectValue[]): Record<string, unknown> {
  ctx.cap.add();
  ctx.budget.tick();
  if (v instanceof ListValue || v instanceof DictValue) {
    const out: Record<string, unknown> = { count: v.count };
    if (depth < 1) return out;
    const entries: Array<[string | number, Value, 'index' | 'key']> =
      v instanceof ListValue
        ? v.items.slice(0, ctx.limit).map((x, i) => [i, x, 'index'])
        : [...v.map].slice(0, ctx.limit).map(([k, x]) => [k as string | number, x, 'key']);
    out.items = entries.map(([at, x, label]) => ({ [label]: at, type: typeOf(x), ...valueFields(x, depth - 1, ctx, ancestors) }));
    const recorded = v instanceof ListValue ? v.items.length : v.map.size;
    if (entries.length < v.count) out.truncated = true;
    if (recorded < v.count) out.recorded = recorded;
    return out;
  }
  if (!isObject(v)) return { value: v instanceof EnumValue ? v.name : (serialize(v, 0, ctx) as unknown) };
  if (ctx.snapshot.isStruct(v.$type)) return { value: structValue(v, ctx) };
  const text = toText(v, ctx.snapshot);
  ctx.cap.add(text);
  const out: Record<string, unknown> = { value: text };
  if (v.$truncated) return { ...out, truncated: true };
  if (ancestors.includes(v)) return { ...out, circular: true };
  if (depth >= 1) out.members = memberNodes(v, depth - 1, ctx, [...ancestors, v]);
  return out;
}

function memberNodes(o: ObjectValue, depth: number, ctx: Ctx, ancestors: ObjectValue[]): Array<Record<string, unknown>> {
  const declared = ctx.snapshot.members(o.$type);
  const known = new Set(declared.map((m) => m.name));
  const extra = memberKeys(o).filter((k) => !known.has(k));
  const infos: Array<MemberInfo | { name: string }> = [
    ...declared.filter((m) => ctx.includePrivate || m.access === 'public'),
    ...extra.map((name) => ({ name })),
  ];
  return infos.map((info) => {
    const m = info as Partial<MemberInfo> & { name: string };
    const recorded = hasMember(o, m.name);
    const v = recorded ? (o[m.name] as Value) : undefined;
    const head = { name: m.name, kind: m.kind ?? 'property', type: m.type ?? typeLabel(v as Value), access: m.access ?? 'public' };
    return recorded ? { ...head, ...valueFields(v as Value, depth, ctx, ancestors) } : { ...head, available: false };
  });
}

function typeView(snapshot: Snapshot, name: string, includePrivate: boolean): TypeInfo {
  if (name === '')
    throw new ToolError('type: needs a type name, e.g. type:Life or type:ExileCore.PoEMemory.Components.Life', { code: 'INVALID_TARGET' });
  const { info, candidates } = snapshot.findType(name);
  if (!info) {
    if (candidates.length > 1)
      throw new ToolError(`type ${name} is ambiguous: ${candidates.join(', ')}`, { code: 'AMBIGUOUS', data: { candidates } });
    const lower = name.toLowerCase();
    const near = [...snapshot.types.keys()].filter((t) => t.toLowerCase().includes(lower)).slice(0, 10);
    throw new NotFoundError(
      `type ${name} is not in this snapshot${near.length ? ` (similar: ${near.join(', ')})` : ''}; try search:*${name}*`,
    );
  }
  if (includePrivate) return info;
  return {
    ...info,
    members: info.members?.filter((m) => m.access === 'public'),
    methods: info.methods?.filter((m) => m.access === 'public'),
  };
}

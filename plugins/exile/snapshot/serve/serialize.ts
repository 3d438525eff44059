// Values as the HUD answers them: primitives as JSON, enums by name, objects as their members down
// to `depth` (below that, their display text), collections as { count, items } with the first items.
import type { Budget, OutputCap } from './eval/budget.js';
import { formatNumber, toText } from './eval/ops.js';
import { DictValue, EnumValue, ListValue, isObject, memberKeys, setOwn, type ObjectValue, type Value } from '../model.js';
import type { Snapshot } from './snapshot.js';
import { pastDepthCollection } from '../writes.js';

/** Items shown per collection in eval and query answers. */
const ITEMS_SHOWN = 100;

export interface SerializeContext {
  snapshot: Snapshot;
  budget: Budget;
  cap: OutputCap;
  items?: number;
}

export function serialize(v: Value, depth: number, ctx: SerializeContext, ancestors: ObjectValue[] = []): unknown {
  ctx.cap.add(typeof v === 'string' ? v : undefined);
  ctx.budget.tick();
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : formatNumber(v);
  const writes = ctx.snapshot.header.writes;
  if (v instanceof EnumValue) return writes.enums === 'value' ? v.value : v.name;
  const shown = ctx.items ?? ITEMS_SHOWN;
  if (v instanceof ListValue) {
    if (depth <= 0) return pastDepthCollection(writes, v.type, v.count);
    const items = v.items.slice(0, shown).map((x) => serialize(x, depth - 1, ctx, ancestors));
    if (writes.collections === 'bare') return items;
    return items.length < v.count ? { count: v.count, items, truncated: true } : { count: v.count, items };
  }
  if (v instanceof DictValue) {
    if (depth <= 0) return pastDepthCollection(writes, v.type, v.count);
    const items: Record<string, unknown> = {};
    let n = 0;
    for (const [k, x] of v.map) {
      if (n++ >= shown) break;
      setOwn(items, String(k), serialize(x, depth - 1, ctx, ancestors));
    }
    if (writes.collections === 'bare') return items;
    return n < v.count ? { count: v.count, items, truncated: true } : { count: v.count, items };
  }
  const o = v as ObjectValue;
  // A struct is a value, not a reference: the seed's HUD writes it whole at any depth ({ X, Y, Z }),
  // and it cannot contain itself, so only the answer cap bounds it; a HUD that writes it as its
  // ToString() text was heard doing so by the recorder (writes.structs).
  const struct = !o.$truncated && ctx.snapshot.isStruct(o.$type);
  if (struct && writes.structs === 'text') return counted(toText(o, ctx.snapshot), ctx);
  if (!struct && (depth <= 0 || o.$truncated)) return counted(toText(o, ctx.snapshot), ctx);
  if (ancestors.includes(o)) return `<circular: ${toText(o, ctx.snapshot)}>`;
  const out: Record<string, unknown> = {};
  const inner = [...ancestors, o];
  for (const key of memberKeys(o)) setOwn(out, key, serialize(o[key] as Value, Math.max(depth - 1, 0), ctx, inner));
  return out;
}

/** A struct's fields as a plain object (the HUD shows struct values inline, e.g. Position), in full. */
export function structValue(o: ObjectValue, ctx: SerializeContext): unknown {
  return isObject(o) ? serialize(o, 0, ctx) : o;
}

function counted(text: string, ctx: SerializeContext): string {
  ctx.cap.add(text);
  return text;
}

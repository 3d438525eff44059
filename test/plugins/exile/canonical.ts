// Test helper: a loaded snapshot graph as one canonical JSON value, independent of where the file
// defined shared objects and how it numbered them. Objects and collections are numbered in
// depth-first order from the roots (sorted); a second visit prints { "#": n }. `shortEmpty` names
// empty collections by their short type (the recorder records them from the member's declared type,
// without a call).
import { DictValue, EnumValue, ListValue, shortType, type Value } from '../../../plugins/exile/snapshot/model.ts';
import type { Snapshot } from '../../../plugins/exile/snapshot/serve/snapshot.ts';

export function canonical(snapshot: Snapshot, options: { shortEmpty?: boolean } = {}): unknown {
  const named = (type: string, count: number) => (options.shortEmpty && count === 0 ? shortType(type) : type);
  const seen = new Map<object, number>();
  const visit = (v: Value): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof EnumValue) return { enum: v.type, name: v.name, value: v.value };
    const known = seen.get(v);
    if (known !== undefined) return { '#': known };
    seen.set(v, seen.size + 1);
    if (v instanceof ListValue) return { list: named(v.type, v.count), count: v.count, items: v.items.map(visit) };
    if (v instanceof DictValue) return { dict: named(v.type, v.count), count: v.count, entries: [...v.map].map(([k, x]) => [k, visit(x)]) };
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)
      .filter((k) => k !== '$id')
      .sort())
      out[key] = visit(v[key] as Value);
    return out;
  };
  return Object.fromEntries([...snapshot.roots.keys()].sort().map((name) => [name, visit(snapshot.roots.get(name)!)]));
}

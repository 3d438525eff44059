// Reading a member or an indexer of a snapshot value, and explaining why one is missing: a member
// the type declares but the recording lacks is "not available in a snapshot", anything else is an
// error that names the type (and a member with the same name in other case, if there is one).
import { ExprError } from '../lang/errors.js';
import {
  DictValue,
  EnumValue,
  ListValue,
  hasMember,
  isObject,
  memberKeys,
  shortType,
  typeLabel,
  type Key,
  type ObjectValue,
  type Value,
} from '../../model.js';
import { HUD_ROOTS } from '../../format.js';
import type { Snapshot } from '../snapshot.js';

export function notInSnapshot(what: string, pos: number, hint?: string): ExprError {
  return new ExprError(`not available in a snapshot: ${what}`, pos, 'NOT_IN_SNAPSHOT', hint);
}

export function getMember(v: Value, name: string, snapshot: Snapshot, pos: number): Value {
  if (isObject(v)) {
    if (hasMember(v, name)) return v[name] as Value;
    throw missingMember(v, name, snapshot, pos);
  }
  if (typeof v === 'string' && name === 'Length') return v.length;
  if (v instanceof ListValue && (name === 'Count' || name === 'Length')) return v.count;
  if (v instanceof DictValue) {
    if (name === 'Count') return v.count;
    if (name === 'Keys' || name === 'Values') {
      if (v.count > v.map.size)
        throw notInSnapshot(`${shortType(v.type)}.${name}`, pos, `only ${v.map.size} of ${v.count} entries were recorded`);
      return new ListValue(
        `${name === 'Keys' ? 'KeyCollection' : 'ValueCollection'}`,
        name === 'Keys' ? [...v.map.keys()] : [...v.map.values()],
      );
    }
  }
  if (v === null) throw new ExprError(`null reference: cannot read ${name} of null`, pos, 'EXPR_EVAL', `use ?. to allow null`);
  throw new ExprError(`${typeLabel(v)} has no member ${name}`, pos);
}

export function missingMember(obj: ObjectValue, name: string, snapshot: Snapshot, pos: number): ExprError {
  const label = shortType(obj.$type ?? 'AnonymousType');
  if (obj.$truncated)
    return notInSnapshot(`${label}.${name}`, pos, 'the object was recorded without its members: record with a larger --depth');
  if (snapshot.member(obj.$type, name)) return notInSnapshot(`${label}.${name}`, pos);
  if (snapshot.method(obj.$type, name)) return new ExprError(`${label}.${name} is a method`, pos, 'EXPR_EVAL', `call it: ${name}()`);
  const lower = name.toLowerCase();
  const near = [...memberKeys(obj), ...snapshot.members(obj.$type).map((m) => m.name)].find((k) => k.toLowerCase() === lower);
  return new ExprError(`${label} has no member ${name}`, pos, 'EXPR_EVAL', near ? `did you mean ${near}?` : undefined);
}

export function getRoot(name: string, snapshot: Snapshot, pos: number): Value {
  const v = snapshot.roots.get(name);
  if (v !== undefined) return v;
  if ((HUD_ROOTS as readonly string[]).includes(name)) throw notInSnapshot(name, pos, 'this root was not recorded');
  const roots = [...snapshot.roots.keys()].join(', ');
  throw new ExprError(`unknown name ${name}`, pos, 'EXPR_EVAL', `roots in this snapshot: ${roots}`);
}

export function getIndex(v: Value, key: Value, snapshot: Snapshot, pos: number): Value {
  if (v instanceof ListValue || typeof v === 'string') {
    const i = key instanceof EnumValue ? key.value : key;
    if (typeof i !== 'number' || !Number.isInteger(i))
      throw new ExprError(`an index into ${typeLabel(v)} must be an integer, got ${typeLabel(key)}`, pos);
    if (typeof v === 'string') {
      if (i < 0 || i >= v.length) throw new ExprError(`index ${i} is out of range (Length = ${v.length})`, pos);
      return v[i];
    }
    if (i >= 0 && i < v.items.length) return v.items[i];
    if (i >= 0 && i < v.count)
      throw notInSnapshot(`${shortType(v.type)}[${i}]`, pos, `only the first ${v.items.length} of ${v.count} items were recorded`);
    throw new ExprError(`index ${i} is out of range (Count = ${v.count})`, pos);
  }
  if (v instanceof DictValue) {
    const k = key instanceof EnumValue ? key.name : key;
    if (k === null || typeof k === 'object')
      throw new ExprError(`a key of ${typeLabel(v)} must be a string, number or boolean, got ${typeLabel(key)}`, pos);
    const found = v.map.get(k as Key);
    if (found !== undefined || v.map.has(k as Key)) return found as Value;
    const alt =
      typeof k === 'number' ? String(k) : typeof k === 'string' && k.trim() !== '' && Number.isFinite(Number(k)) ? Number(k) : undefined;
    if (alt !== undefined && v.map.has(alt)) return v.map.get(alt) as Value;
    if (v.count > v.map.size)
      throw notInSnapshot(`${shortType(v.type)}[${JSON.stringify(k)}]`, pos, `only ${v.map.size} of ${v.count} entries were recorded`);
    const keys = [...v.map.keys()]
      .slice(0, 10)
      .map((x) => JSON.stringify(x))
      .join(', ');
    throw new ExprError(
      `key ${JSON.stringify(k)} not found in ${shortType(v.type)}`,
      pos,
      'EXPR_EVAL',
      `keys: ${keys}${v.map.size > 10 ? ', …' : ''}`,
    );
  }
  if (v === null) throw new ExprError('null reference: cannot index null', pos, 'EXPR_EVAL', 'use ?[ ] to allow null');
  throw new ExprError(`${typeLabel(v)} has no indexer`, pos);
}

/** `GetComponent<T>()` / `HasComponent<T>()`: T is looked up in the entity's Components dictionary. */
export function getComponent(entity: ObjectValue, typeArg: string, snapshot: Snapshot, pos: number, call: string): Value {
  const components = entity.Components;
  const label = shortType(entity.$type ?? 'Entity');
  if (!(components instanceof DictValue)) {
    if (entity.$truncated || (components === undefined && snapshot.member(entity.$type, 'Components'))) {
      throw notInSnapshot(`${label}.${call}`, pos, 'the entity was recorded without its Components');
    }
    throw new ExprError(`${label} has no Components dictionary for ${call}`, pos);
  }
  const short = shortType(typeArg);
  const direct = components.map.get(short);
  if (direct !== undefined) return direct;
  for (const c of components.map.values()) if (isObject(c) && snapshot.isA(c.$type, typeArg)) return c;
  if (components.count > components.map.size)
    throw notInSnapshot(`${label}.${call}`, pos, `only ${components.map.size} of ${components.count} components were recorded`);
  return null;
}

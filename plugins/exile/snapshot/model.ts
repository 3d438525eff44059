// Values of a loaded snapshot. Primitives stay JSON primitives and objects stay the parsed JSON
// objects (members as own keys, `$type` and friends beside them); enums, lists and dictionaries
// become small classes so the evaluator can tell them apart with one `instanceof`.

export type Key = string | number | boolean;

/** A recorded object (or an anonymous one built by `new { }`): members are its non-`$` own keys. */
export interface ObjectValue {
  $type?: string;
  $id?: number | string;
  $value?: string;
  $truncated?: boolean;
  [member: string]: unknown;
}

export type Value = null | boolean | number | string | EnumValue | ListValue | DictValue | ObjectValue;

abstract class Special {
  abstract readonly type: string;
}

export class EnumValue extends Special {
  constructor(
    readonly type: string,
    readonly name: string,
    readonly value: number,
  ) {
    super();
  }
}

export class ListValue extends Special {
  constructor(
    readonly type: string,
    readonly items: Value[],
    /** The collection's real size; larger than items.length when only the first items were recorded. */
    readonly count: number = items.length,
  ) {
    super();
  }
}

export class DictValue extends Special {
  constructor(
    readonly type: string,
    readonly map: Map<Key, Value>,
    readonly count: number = map.size,
  ) {
    super();
  }

  /** Dictionary enumeration yields KeyValuePair objects, as in C#. */
  pairs(): ObjectValue[] {
    const type = `KeyValuePair<${genericArgs(this.type).join(', ') || 'Object, Object'}>`;
    return [...this.map].map(([Key, v]) => ({ $type: type, Key, Value: v }));
  }
}

export type Collection = ListValue | DictValue;

export function isObject(v: unknown): v is ObjectValue {
  return typeof v === 'object' && v !== null && !(v instanceof Special);
}

export function isCollection(v: unknown): v is Collection {
  return v instanceof ListValue || v instanceof DictValue;
}

export function elementsOf(c: Collection): Value[] {
  return c instanceof ListValue ? c.items : c.pairs();
}

/** Sets an own property, even one named `__proto__` (plain assignment would replace the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

function isMemberKey(key: string): boolean {
  return key.charCodeAt(0) !== 36; // '$'
}

export function memberKeys(obj: ObjectValue): string[] {
  return Object.keys(obj).filter(isMemberKey);
}

export function hasMember(obj: ObjectValue, name: string): boolean {
  return isMemberKey(name) && Object.hasOwn(obj, name);
}

/** `ExileCore.PoEMemory.Components.Life` → `Life`; `System.Collections.Generic.List<X.Buff>` → `List<Buff>`. */
export function shortType(name: string): string {
  // One pass, no regex: a user's `type:` or `GetComponent<…>` text reaches here, and the regex this
  // replaces (/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g) took quadratic time on a long name without dots.
  let out = '';
  let i = 0;
  const wordEnd = (from: number) => {
    let j = from + 1;
    while (j < name.length && isIdentPart(name[j])) j++;
    return j;
  };
  while (i < name.length) {
    if (!isIdentStart(name[i])) {
      out += name[i++];
      continue;
    }
    let start = i;
    let end = wordEnd(i);
    while (name[end] === '.' && end + 1 < name.length && isIdentStart(name[end + 1])) {
      start = end + 1;
      end = wordEnd(start);
    }
    out += name.slice(start, end);
    i = end;
  }
  return out;
}

function isIdentStart(c: string): boolean {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

/** `Dictionary<String, Component>` → [`String`, `Component`] (top-level arguments only). */
function genericArgs(name: string): string[] {
  const open = name.indexOf('<');
  if (open < 0 || !name.endsWith('>')) return [];
  const out: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = start; i < name.length - 1; i++) {
    const c = name[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      out.push(name.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(name.slice(start, name.length - 1).trim());
  return out;
}

/** The runtime type name of a value, as the HUD reports it (`Int32`, `String`, a full class name). */
export function typeOf(v: Value | undefined): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'Boolean';
    case 'string':
      return 'String';
    case 'number':
      return Number.isInteger(v) ? 'Int32' : 'Double';
    default:
      return v instanceof Special ? v.type : (v.$type ?? 'AnonymousType');
  }
}

/** A short type name for messages. */
export function typeLabel(v: Value | undefined): string {
  return shortType(typeOf(v));
}

// Operator semantics, following C# and Dynamic LINQ: == compares enums with their names or
// numbers, comparisons with null are false, arithmetic on null is null, / of two integers truncates,
// and mixing kinds that C# would not compile is an error at the operator.
import { ExprError } from '../lang/errors.js';
import { EnumValue, isCollection, isObject, memberKeys, shortType, typeLabel, type ObjectValue, type Value } from '../../model.js';
import type { Snapshot } from '../snapshot.js';

const collator = new Intl.Collator('en', { sensitivity: 'variant' });

type Category = 'null' | 'boolean' | 'number' | 'string' | 'enum' | 'object' | 'collection';

function category(v: Value): Category {
  if (v === null) return 'null';
  const t = typeof v;
  if (t === 'boolean' || t === 'number' || t === 'string') return t as Category;
  if (v instanceof EnumValue) return 'enum';
  return isCollection(v) ? 'collection' : 'object';
}

function enumMatchesName(e: EnumValue, name: string): boolean {
  if (e.name === name) return true;
  const parts = (s: string) =>
    s
      .split(',')
      .map((p) => p.trim())
      .sort()
      .join(',');
  return e.name.includes(',') && parts(e.name) === parts(name);
}

export function equals(a: Value, b: Value, snapshot: Snapshot, pos: number, strict = true): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a instanceof EnumValue || b instanceof EnumValue) {
    const [e, other] = a instanceof EnumValue ? [a, b] : [b as EnumValue, a];
    if (other instanceof EnumValue) return e.value === other.value && shortType(e.type) === shortType(other.type);
    if (typeof other === 'number') return e.value === other;
    if (typeof other === 'string') return enumMatchesName(e, other);
  }
  const ca = category(a);
  const cb = category(b);
  if (ca === cb) {
    if (
      ca === 'object' &&
      (a as ObjectValue).$type !== undefined &&
      (a as ObjectValue).$type === (b as ObjectValue).$type &&
      snapshot.isStruct((a as ObjectValue).$type)
    ) {
      return memberKeys(a as ObjectValue).every((k) =>
        equals((a as ObjectValue)[k] as Value, (b as ObjectValue)[k] as Value, snapshot, pos, false),
      );
    }
    return false;
  }
  if (!strict) return false;
  throw new ExprError(`operator '==' cannot compare ${typeLabel(a)} with ${typeLabel(b)}`, pos);
}

function numeric(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof EnumValue) return v.value;
  return undefined;
}

/** Sign of a - b for `< > <= >=`, or null when either side is null (the comparison is then false). */
export function compare(a: Value, b: Value, op: string, pos: number): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === null || b === null) return null;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  throw new ExprError(`operator '${op}' cannot compare ${typeLabel(a)} with ${typeLabel(b)}`, pos);
}

const RANK: Record<Category, number> = { null: 0, boolean: 1, number: 2, enum: 2, string: 3, object: 4, collection: 5 };

/** Total order for orderBy: null first, false before true, numbers and enums by value, text by culture. */
export function orderCompare(a: Value, b: Value, pos: number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ca = category(a);
  const cb = category(b);
  if (RANK[ca] !== RANK[cb]) return RANK[ca] - RANK[cb];
  switch (ca) {
    case 'null':
      return 0;
    case 'boolean':
      return Number(a) - Number(b);
    case 'number':
    case 'enum':
      return numeric(a)! - numeric(b)!;
    case 'string':
      return collator.compare(a as string, b as string);
    default:
      throw new ExprError(`cannot order by ${typeLabel(a)} values (order by one of its members instead)`, pos);
  }
}

export function truthy(v: Value, what: string, pos: number): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null) return false;
  throw new ExprError(`${what} needs a Boolean, got ${typeLabel(v)}`, pos);
}

export function arithmetic(op: string, a: Value, b: Value, integerDivision: boolean, snapshot: Snapshot, pos: number): Value {
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) return concatText(a, snapshot) + concatText(b, snapshot);
  if (a === null || b === null) return null;
  const x = numeric(a);
  const y = numeric(b);
  if (x === undefined || y === undefined)
    throw new ExprError(`operator '${op}' cannot be applied to ${typeLabel(a)} and ${typeLabel(b)}`, pos);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (integerDivision && Number.isInteger(x) && Number.isInteger(y)) {
        if (y === 0) throw new ExprError('division by zero', pos);
        return Math.trunc(x / y);
      }
      return x / y;
    default:
      if (integerDivision && Number.isInteger(x) && Number.isInteger(y) && y === 0) throw new ExprError('division by zero', pos);
      return x % y;
  }
}

function concatText(v: Value, snapshot: Snapshot): string {
  return v === null ? '' : toText(v, snapshot);
}

/** C#'s ToString() of a value (null has none: callers raise the NullReferenceException). */
export function toText(v: Exclude<Value, null>, snapshot: Snapshot): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'True' : 'False';
    case 'number':
      return formatNumber(v);
  }
  if (v instanceof EnumValue) return v.name;
  if (isCollection(v)) return v.type;
  const o = v as ObjectValue;
  if (o.$value !== undefined) return o.$value;
  const vector = vectorText(o);
  if (vector) return vector;
  if (o.$type !== undefined) return o.$type;
  return `{ ${memberKeys(o)
    .map((k) => `${k} = ${o[k] === null ? '' : toText(o[k] as Exclude<Value, null>, snapshot)}`)
    .join(', ')} }`;
}

export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '-∞';
  return String(n).replace('e', 'E');
}

const single = (n: number) => (Number.isFinite(n) ? Number(Math.fround(n).toPrecision(7)) : n);

/** System.Numerics vectors print as `<1, 2, 3>`, SharpDX's (ExileApi 2020) as `X:1 Y:2 Z:3`. */
function vectorText(o: ObjectValue): string | undefined {
  const numerics = o.$type?.startsWith('System.Numerics.Vector');
  if (!numerics && !o.$type?.startsWith('SharpDX.Vector')) return undefined;
  const axes = ['X', 'Y', 'Z', 'W'].filter((k) => typeof o[k] === 'number');
  if (axes.length === 0) return undefined;
  // SharpDX's fields are Single, which .NET Framework prints with 7 significant digits (a recorded
  // 5761.099999999999 is the Single 5761.1).
  if (!numerics) return axes.map((k) => `${k}:${formatNumber(single(o[k] as number))}`).join(' ');
  return `<${axes.map((k) => formatNumber(o[k] as number)).join(', ')}>`;
}

/** Stable within a snapshot (it cannot equal the live process's value). */
export function hashCode(v: Exclude<Value, null>, snapshot: Snapshot): number {
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 0x7fffffff) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof EnumValue) return v.value | 0;
  if (isObject(v) && v.$id !== undefined) return typeof v.$id === 'number' ? v.$id | 0 : fnv(`$id:${v.$id}`);
  if (isObject(v) && typeof v.Address === 'number') return (v.Address ^ (v.Address / 2 ** 32)) | 0;
  return fnv(typeof v === 'object' ? `${typeLabel(v)}:${toText(v, snapshot)}` : String(v));
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

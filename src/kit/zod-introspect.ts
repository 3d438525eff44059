// Reads the shape of a zod 4 schema: which keys an object has, and what kind of value sits at a
// key path. Used to coerce strings from the environment and to name known keys in errors.
import type * as z from 'zod';

type Def = { type: string; [key: string]: unknown };

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

const wrappers = new Set(['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Strips optional/default/nullable/pipe wrappers to the schema that decides the value's type. */
function unwrap(schema: unknown): unknown {
  let cur = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(cur);
    if (!def) return cur;
    if (wrappers.has(def.type)) cur = def.innerType;
    else if (def.type === 'pipe') cur = def.in;
    else if (def.type === 'lazy') cur = (def.getter as () => unknown)();
    else return cur;
  }
  return cur;
}

export function kindOf(schema: unknown): string | undefined {
  return defOf(unwrap(schema))?.type;
}

export function objectShape(schema: unknown): Record<string, z.ZodType> | undefined {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def?.type !== 'object') return undefined;
  return def.shape as Record<string, z.ZodType>;
}

/** The schema at a key path inside nested objects, or undefined when the path leaves the schema. */
export function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = schema;
  for (const key of path) {
    const inner = unwrap(cur);
    const def = defOf(inner);
    if (def?.type === 'object') cur = (def.shape as Record<string, unknown>)[String(key)];
    else if (def?.type === 'array') cur = def.element;
    else if (def?.type === 'record') cur = def.valueType;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

const truthy = new Set(['1', 'true', 'yes', 'on']);
const falsy = new Set(['0', 'false', 'no', 'off', '']);

/**
 * Converts a string (from the environment or a flag) to the type the schema wants. A value that
 * cannot be converted is returned unchanged, so validation reports it with the original text.
 */
export function coerceString(schema: unknown, value: string): unknown {
  const kind = kindOf(schema);
  if (kind === 'number' || kind === 'int' || kind === 'bigint') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (kind === 'boolean') {
    const v = value.trim().toLowerCase();
    if (truthy.has(v)) return true;
    if (falsy.has(v)) return false;
    return value;
  }
  if (kind === 'array') {
    const element = defOf(unwrap(schema))?.element;
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => coerceString(element, s));
  }
  if (kind === 'object' || kind === 'record') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Keys present in `value` that a plain `z.object` would silently drop, at any depth. Loose and
 * strict objects are left to zod (loose accepts extra keys on purpose; strict reports them itself).
 */
export function unknownKeys(schema: unknown, value: unknown, path: string[] = []): Array<{ path: string[]; known: string[] }> {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def?.type === 'union') {
    // Judge against the option whose keys fit best; zod reports a mismatch of the union itself.
    let best: Array<{ path: string[]; known: string[] }> | undefined;
    for (const option of def.options as unknown[]) {
      const found = unknownKeys(option, value, path);
      if (!best || found.length < best.length) best = found;
    }
    return best ?? [];
  }
  if (value === null || typeof value !== 'object') return [];
  if (def?.type === 'array' && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownKeys(def.element, item, [...path, String(i)]));
  }
  if (def?.type === 'record' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => unknownKeys(def.valueType, v, [...path, k]));
  }
  if (def?.type !== 'object' || Array.isArray(value)) return [];
  const shape = def.shape as Record<string, unknown>;
  const found: Array<{ path: string[]; known: string[] }> = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key in shape) found.push(...unknownKeys(shape[key], child, [...path, key]));
    else if (def.catchall === undefined) found.push({ path: [...path, key], known: Object.keys(shape) });
  }
  return found;
}

/** A metadata value of the schema or of any schema it wraps (optional, default, describe, pipe, …). */
function metaOf(schema: unknown, key: string): unknown {
  const read = (s: unknown) => (s as { meta?: () => Record<string, unknown> | undefined } | undefined)?.meta?.()?.[key];
  let cur = schema;
  for (let i = 0; i < 20 && cur !== undefined; i++) {
    const found = read(cur);
    if (found !== undefined) return found;
    const def = defOf(cur);
    if (!def) return undefined;
    if (wrappers.has(def.type)) cur = def.innerType;
    else if (def.type === 'pipe') cur = def.in;
    else if (def.type === 'lazy') cur = (def.getter as () => unknown)();
    else return undefined;
  }
  return undefined;
}

/** True when the schema (or the schema it wraps) carries `.meta({ 'mcphost/path': true })`. */
function isPathSchema(schema: unknown): boolean {
  return Boolean(metaOf(schema, 'mcphost/path'));
}

/** What resolving a setting needs of its schema: what it runs; for a text, whether it is a path; for an object, the schema it wraps. */
export interface KeyMarks {
  schema: unknown;
  runs?: RunsKind;
  path: boolean;
  inner?: unknown;
}

/**
 * The marks of each key of `value` inside `schema` (an object's or a record's), read in one call
 * (what is read depends on the value, as a caller asking key by key would); a key the schema does not know is left out.
 */
export function keyMarks(schema: unknown, value: Record<string, unknown>): Map<string, KeyMarks> {
  const out = new Map<string, KeyMarks>();
  for (const [key, v] of Object.entries(value)) {
    const child = schemaAt(schema, [key]);
    if (child === undefined) continue;
    out.set(key, {
      schema: child,
      runs: runsKind(child),
      path: typeof v === 'string' && v !== '' && isPathSchema(child),
      inner: typeof v === 'object' && v !== null ? unwrap(child) : undefined,
    });
  }
  return out;
}

/** What a setting starts, when its schema is marked so (`programPath()`, `codePath()`, `runs()`). */
export type RunsKind = 'program' | 'code' | 'command';

export function runsKind(schema: unknown): RunsKind | undefined {
  const kind = metaOf(schema, 'mcphost/runs');
  return kind === 'program' || kind === 'code' || kind === 'command' ? kind : undefined;
}

/** A zod ≥ 4 schema; a zod 3 schema registers but breaks `tools/list` for every client. */
export function isZod4Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as z.ZodType).safeParse === 'function';
}

export function isZod3Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_def' in value && !('_zod' in value);
}

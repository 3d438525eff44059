// A config value built from layers (defaults < file < environment < flags) that remembers, for
// every key path, which layer set it, so `mcphost config` can say where each value came from.

export type Source = { kind: 'default' } | { kind: 'file'; file: string } | { kind: 'env'; name: string } | { kind: 'flag'; name: string };

export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      return `file ${source.file}`;
    case 'env':
      return `env ${source.name}`;
    case 'flag':
      return `flag ${source.name}`;
  }
}

export type Sources = Map<string, Source>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = root;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(cur[key])) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}

/** Records `source` for every leaf under `value` (arrays count as leaves). */
export function recordLeaves(sources: Sources, value: unknown, path: string[], source: Source): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) recordLeaves(sources, v, [...path, k], source);
  } else {
    sources.set(path.join('.'), source);
  }
}

/** Marks every leaf of `resolved` that no layer set as coming from the defaults. */
export function fillDefaultSources(sources: Sources, resolved: unknown, path: string[] = []): void {
  if (isPlainObject(resolved) && Object.keys(resolved).length > 0) {
    for (const [k, v] of Object.entries(resolved)) fillDefaultSources(sources, v, [...path, k]);
  } else if (path.length > 0 && !hasSourceAtOrAbove(sources, path)) {
    sources.set(path.join('.'), { kind: 'default' });
  }
}

function hasSourceAtOrAbove(sources: ReadonlyMap<string, Source>, path: string[]): boolean {
  for (let i = path.length; i > 0; i--) if (sources.has(path.slice(0, i).join('.'))) return true;
  return false;
}

/** The source of a key path, looking at parents when the path itself was set as part of an object. */
export function sourceOf(sources: ReadonlyMap<string, Source>, path: string): Source | undefined {
  const parts = path.split(/\.|\[/);
  for (let i = parts.length; i > 0; i--) {
    const found = sources.get(parts.slice(0, i).join('.'));
    if (found) return found;
  }
  return undefined;
}

export function deepClone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * Read-only properties all the way down. Arrays keep their mutable type so they pass to the many
 * signatures that take `string[]`; deepFreeze freezes them at run time all the same.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, DeepReadonly<V>>
    : T extends (infer U)[]
      ? DeepReadonly<U>[]
      : T extends object
        ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T;

/**
 * Freezes plain objects and arrays all the way down, and makes maps refuse writes, so a resolved
 * config cannot be changed by whoever holds it (a write throws in strict-mode code).
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    if (item instanceof Map) {
      for (const v of item.values()) stack.push(v);
      const refuse = () => {
        throw new TypeError('a resolved config is read-only');
      };
      Object.assign(item, { set: refuse, delete: refuse, clear: refuse });
    } else {
      for (const v of Object.values(item)) stack.push(v);
    }
    Object.freeze(item);
  }
  return value as DeepReadonly<T>;
}

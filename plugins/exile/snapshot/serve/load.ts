// Reads a snapshot file: JSON, then the envelope (format, version, type metadata) checked with zod,
// then one pass over the object graph that checks every value, resolves `$ref`s (shared and circular
// objects become the same JS object) and shares equal enum values. Errors name the path:
// `roots.Entities.$values[17].Position: ...`.
import { SEED_WRITES } from '../writes.js';
import { issueLines, NotRegularFileError, readRegularFile } from '../../../../src/kit/index.js';
import { documentSchema, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type TypeInfo } from '../format.js';
import { DictValue, EnumValue, ListValue, setOwn, type Key, type ObjectValue, type Value } from '../model.js';
import { Snapshot } from './snapshot.js';

/** Deeper nesting than this in the graph is refused (a recorder bug, or a hostile file). */
export const MAX_GRAPH_NESTING = 1000;

class SnapshotLoadError extends Error {
  readonly path: Array<string | number> = [];
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SnapshotLoadError';
  }

  where(): string {
    return this.path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
  }
}

export async function loadSnapshot(file: string): Promise<Snapshot> {
  let text: string;
  try {
    // A FIFO or device under the snapshot's name is refused by its type instead of read without end.
    text = await readRegularFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof NotRegularFileError)
      throw new Error(
        `snapshot ${file} is a ${error.kind}, not a regular file: set plugins.exile.snapshot (or --snapshot) to a snapshot file`,
        {
          cause: error,
        },
      );
    throw new Error(
      code === 'ENOENT'
        ? `snapshot ${file} does not exist: record one with \`mcphost exile:snapshot --out ${file}\``
        : `cannot read snapshot ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    return parseSnapshot(text, file);
  } catch (error) {
    if (error instanceof SnapshotLoadError) {
      const where = error.where();
      throw new Error(`snapshot ${file}: ${where ? `${where}: ` : ''}${error.reason}`, { cause: error });
    }
    throw error;
  }
}

/** Builds a snapshot from JSON text (or an already parsed document); throws `SnapshotLoadError`. */
export function parseSnapshot(input: string | unknown, file?: string): Snapshot {
  let doc: unknown = input;
  if (typeof input === 'string') {
    try {
      doc = JSON.parse(input);
    } catch (error) {
      throw new SnapshotLoadError(`not valid JSON: ${(error as Error).message}`);
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new SnapshotLoadError('expected a JSON object (an mcphost exile snapshot)');
  const envelope = doc as Record<string, unknown>;
  if (envelope.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotLoadError(
      `not an mcphost exile snapshot: format is ${JSON.stringify(envelope.format)}, expected "${SNAPSHOT_FORMAT}"`,
    );
  }
  if (typeof envelope.version === 'number' && envelope.version > SNAPSHOT_VERSION) {
    throw new SnapshotLoadError(
      `snapshot format version ${envelope.version} is newer than this mcphost reads (${SNAPSHOT_VERSION}): upgrade mcphost`,
    );
  }
  const parsed = documentSchema.safeParse(envelope);
  if (!parsed.success) {
    const first = issueLines(parsed.error, envelope, [], documentSchema)[0];
    const error = new SnapshotLoadError(first?.message ?? parsed.error.message);
    if (first?.path) error.path.push(first.path);
    throw error;
  }
  const types = new Map<string, TypeInfo>();
  for (const [key, info] of Object.entries(parsed.data.types)) {
    if (info.type !== key)
      throw Object.assign(new SnapshotLoadError(`type entry ${key} names itself ${info.type}`), { path: ['types', key] });
    types.set(key, info);
  }
  const roots = new GraphReader().read(envelope.roots as Record<string, unknown>);
  return new Snapshot(roots, types, {
    version: parsed.data.version,
    recordedAt: parsed.data.recordedAt,
    source: parsed.data.source,
    writes: parsed.data.hud?.writes ?? SEED_WRITES,
    file,
  });
}

type Holder = Value[] | Map<Key, Value> | ObjectValue;

function describeHolder(holder: Holder, key: Key): string {
  if (Array.isArray(holder)) return `item ${String(key)} of a list`;
  if (holder instanceof Map) return `entry ${JSON.stringify(key)}`;
  return `member ${String(key)} of a ${holder.$type ?? 'object'}`;
}

/** Returned for a `{ "$ref": id }` (the id in `GraphReader.refId`); resolved once every `$id` is known. */
const REF = Symbol('$ref');
type Ref = typeof REF;

const OBJECT_KEYS = new Set(['$type', '$id', '$value', '$truncated']);
const LIST_KEYS = new Set(['$type', '$id', '$count', '$values']);
const DICT_KEYS = new Set(['$type', '$id', '$count', '$entries']);
const ENUM_KEYS = new Set(['$type', '$enum', '$value']);

class GraphReader {
  /** Objects by `$id`: small non-negative integer ids in an array (the recorder's), others in a map. */
  private readonly denseIds: Array<Value | undefined> = [];
  private readonly otherIds = new Map<number | string, Value>();
  private readonly refHolders: Holder[] = [];
  private readonly refKeys: Key[] = [];
  private readonly refIds: Array<number | string> = [];
  /** Enum values shared by type, then name. */
  private readonly enums = new Map<string, Map<string, EnumValue>>();
  private refId: number | string = 0;

  private lookup(id: number | string): Value | undefined {
    return typeof id === 'number' && id >= 0 && id < 1e7 ? this.denseIds[id] : this.otherIds.get(id);
  }

  read(rawRoots: Record<string, unknown>): Map<string, Value> {
    const roots = new Map<string, Value>();
    for (const [name, raw] of Object.entries(rawRoots)) {
      this.at(['roots', name], () => this.place(roots, name, this.value(raw, 0)));
    }
    for (let i = 0; i < this.refIds.length; i++) {
      const id = this.refIds[i];
      const holder = this.refHolders[i];
      const key = this.refKeys[i];
      const target = this.lookup(id);
      if (target === undefined) {
        throw new SnapshotLoadError(
          `$ref ${JSON.stringify(id)} (${describeHolder(holder, key)}) points at no object: no "$id": ${JSON.stringify(id)} in the document`,
        );
      }
      if (holder instanceof Map) holder.set(key, target);
      else setOwn(holder as Record<string, unknown>, key as string, target);
    }
    return roots;
  }

  private at<T>(segments: Array<string | number>, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof SnapshotLoadError) error.path.unshift(...segments);
      throw error;
    }
  }

  private place(holder: Holder | Map<string, Value>, key: Key, v: Value | Ref): void {
    if (v === REF) {
      this.refHolders.push(holder as Holder);
      this.refKeys.push(key);
      this.refIds.push(this.refId);
      if (holder instanceof Map) (holder as Map<Key, Value>).set(key, null);
      return;
    }
    if (holder instanceof Map) (holder as Map<Key, Value>).set(key, v);
    else setOwn(holder as Record<string, unknown>, key as string, v);
  }

  private value(raw: unknown, depth: number): Value | Ref {
    if (raw === null || typeof raw !== 'object') {
      if (raw === undefined) throw new SnapshotLoadError('missing value');
      return raw as Value;
    }
    if (Array.isArray(raw))
      throw new SnapshotLoadError('a bare array is not a value: write a list as { "$type": "List<T>", "$values": [...] }');
    if (depth > MAX_GRAPH_NESTING) throw new SnapshotLoadError(`nested deeper than ${MAX_GRAPH_NESTING} levels`);
    const o = raw as Record<string, unknown>;
    if ('$ref' in o) {
      for (const key in o) if (key !== '$ref') throw new SnapshotLoadError('a $ref object takes no other keys');
      this.refId = this.id(o.$ref, '$ref');
      return REF;
    }
    if (typeof o.$type !== 'string' || o.$type === '') throw new SnapshotLoadError('object without "$type" (a string naming its type)');
    if ('$enum' in o) return this.enumValue(o);
    if ('$values' in o) return this.register(o, this.list(o, depth));
    if ('$entries' in o) return this.register(o, this.dict(o, depth));
    return this.register(o, this.object(o as ObjectValue, depth));
  }

  private id(raw: unknown, key: string): number | string {
    if ((typeof raw === 'number' && Number.isInteger(raw)) || (typeof raw === 'string' && raw !== '')) return raw;
    throw new SnapshotLoadError(`${key} must be an integer or a non-empty string, got ${JSON.stringify(raw)}`);
  }

  private register(o: Record<string, unknown>, v: Value): Value {
    if (o.$id === undefined) return v;
    const id = this.id(o.$id, '$id');
    if (this.lookup(id) !== undefined) throw new SnapshotLoadError(`duplicate "$id": ${JSON.stringify(id)}`);
    if (typeof id === 'number' && id >= 0 && id < 1e7) this.denseIds[id] = v;
    else this.otherIds.set(id, v);
    return v;
  }

  private checkKeys(o: Record<string, unknown>, allowed: Set<string>, what: string): void {
    for (const key in o) {
      if (key.charCodeAt(0) === 36 && !allowed.has(key))
        throw new SnapshotLoadError(`unknown key "${key}" in ${what} (allowed: ${[...allowed].join(', ')})`);
    }
  }

  private enumValue(o: Record<string, unknown>): EnumValue {
    this.checkKeys(o, ENUM_KEYS, 'an enum value');
    if (Object.keys(o).length !== 3) throw new SnapshotLoadError('an enum value has exactly "$type", "$enum" and "$value"');
    if (typeof o.$enum !== 'string' || typeof o.$value !== 'number')
      throw new SnapshotLoadError('an enum value needs "$enum" (its name) and "$value" (its number)');
    let byName = this.enums.get(o.$type as string);
    if (!byName) this.enums.set(o.$type as string, (byName = new Map()));
    const known = byName.get(o.$enum);
    if (known && known.value === o.$value) return known;
    const v = new EnumValue(o.$type as string, o.$enum, o.$value);
    if (!known) byName.set(o.$enum, v);
    return v;
  }

  private count(o: Record<string, unknown>, length: number): number {
    if (o.$count === undefined) return length;
    if (typeof o.$count !== 'number' || !Number.isInteger(o.$count) || o.$count < length) {
      throw new SnapshotLoadError(`"$count" must be an integer ≥ the ${length} recorded items, got ${JSON.stringify(o.$count)}`);
    }
    return o.$count;
  }

  private list(o: Record<string, unknown>, depth: number): ListValue {
    this.checkKeys(o, LIST_KEYS, 'a list');
    const items = o.$values;
    if (!Array.isArray(items)) throw new SnapshotLoadError('"$values" must be an array');
    let i = 0;
    try {
      for (; i < items.length; i++) {
        const item = items[i];
        if (item !== null && typeof item === 'object') this.place(items, i, this.value(item, depth + 1));
      }
    } catch (error) {
      if (error instanceof SnapshotLoadError) error.path.unshift('$values', i);
      throw error;
    }
    return new ListValue(o.$type as string, items as Value[], this.count(o, items.length));
  }

  private dict(o: Record<string, unknown>, depth: number): DictValue {
    this.checkKeys(o, DICT_KEYS, 'a dictionary');
    const entries = o.$entries;
    if (!Array.isArray(entries)) throw new SnapshotLoadError('"$entries" must be an array of [key, value] pairs');
    const map = new Map<Key, Value>();
    let i = 0;
    try {
      for (; i < entries.length; i++) {
        const pair = entries[i];
        if (!Array.isArray(pair) || pair.length !== 2) throw new SnapshotLoadError('an entry must be a [key, value] pair');
        const key = pair[0];
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean')
          throw new SnapshotLoadError('a key must be a string, number or boolean');
        if (map.has(key)) throw new SnapshotLoadError(`duplicate key ${JSON.stringify(key)}`);
        this.place(map, key, this.value(pair[1], depth + 1));
      }
    } catch (error) {
      if (error instanceof SnapshotLoadError) error.path.unshift('$entries', i);
      throw error;
    }
    return new DictValue(o.$type as string, map, this.count(o, map.size));
  }

  private object(o: ObjectValue, depth: number): ObjectValue {
    let key = '';
    try {
      for (key in o) {
        const v = o[key];
        if (key.charCodeAt(0) === 36) {
          if (!OBJECT_KEYS.has(key))
            throw new SnapshotLoadError(`unknown key "${key}" in an object (allowed: ${[...OBJECT_KEYS].join(', ')}, and members)`);
          if (key === '$value' && typeof v !== 'string') throw new SnapshotLoadError('"$value" (display text) must be a string');
          if (key === '$truncated' && typeof v !== 'boolean') throw new SnapshotLoadError('"$truncated" must be a boolean');
          continue;
        }
        if (v !== null && typeof v === 'object') this.place(o, key, this.value(v, depth + 1));
      }
    } catch (error) {
      if (error instanceof SnapshotLoadError && key.charCodeAt(0) !== 36) error.path.unshift(key);
      throw error;
    }
    return o;
  }
}

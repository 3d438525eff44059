// Records a snapshot through the three remote tools only. Breadth-first from the roots, one
// `explore <path> depth 1` per object or collection, so every object is recorded where it is
// nearest a root; objects with an `Address` are identified by type + address, which turns shared
// and circular references into $id / $ref. Type metadata comes from `explore type:<Name>` for every
// type met (and its bases), plus the types matched by `types` globs.
import { ToolError, type Logger, type ProgressUpdate } from '../../../src/backend/index.js';
import type { ExileProvider } from '../provider.js';
import { HUD_ROOTS, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotDocument, type SnapshotValue, type TypeInfo } from './format.js';
import { setOwn } from './model.js';
import { enumFrom, isTextType, lookupWorthy, normalizeTypeInfo, structFrom, unwrapResult, type ExploreNode } from './record-values.js';

export interface RecordOptions {
  /** Roots to record (default: every root the HUD lists except Files and Memory). */
  roots?: string[];
  /** Object levels below each root (default 8). */
  depth?: number;
  /** Items recorded per collection (default and maximum 10,000). */
  items?: number;
  /** Globs of extra types whose metadata to record (`*` for all), besides the types met. */
  types?: string[];
  /** Explore calls in flight at once (default 4). */
  concurrency?: number;
  progress?(update: ProgressUpdate): void;
  signal?: AbortSignal;
  logger?: Logger;
  /** Extra `source` fields for the header (the HUD's URL). */
  source?: Record<string, unknown>;
}

const SKIPPED_BY_DEFAULT = new Set(['Files', 'Memory']);
const PENDING = Symbol('pending');
type Slot = (v: SnapshotValue | undefined) => void;
interface Job {
  path: string;
  depth: number;
  place: Slot;
}

export async function recordSnapshot(remote: ExileProvider, options: RecordOptions = {}): Promise<SnapshotDocument> {
  return new Recorder(remote, options).run();
}

class Recorder {
  private readonly depth: number;
  private readonly items: number;
  private readonly signal: AbortSignal;
  private readonly typeCache = new Map<string, TypeInfo | null>();
  private readonly types = new Map<string, TypeInfo>();
  private readonly identities = new Map<string, number>();
  private readonly queue: Job[] = [];
  private calls = 0;

  constructor(
    private readonly remote: ExileProvider,
    private readonly options: RecordOptions,
  ) {
    this.depth = options.depth ?? 8;
    this.items = Math.min(options.items ?? 10_000, 10_000);
    this.signal = options.signal ?? new AbortController().signal;
  }

  async run(): Promise<SnapshotDocument> {
    const available = await this.listRoots();
    const wanted = this.options.roots ?? available.filter((r) => !SKIPPED_BY_DEFAULT.has(r));
    const unknown = wanted.filter((r) => !available.includes(r));
    if (unknown.length > 0)
      throw new ToolError(`unknown root ${unknown.join(', ')}: the HUD serves ${available.join(', ')}`, { code: 'INVALID_ARGUMENT' });
    const roots: Record<string, SnapshotValue> = {};
    for (const name of wanted) this.queue.push({ path: name, depth: this.depth, place: (v) => v !== undefined && (roots[name] = v) });
    await this.drain();
    for (const glob of this.options.types ?? []) await this.recordMatchingTypes(glob);
    dropUnusedIds(roots);
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      recordedAt: new Date().toISOString(),
      source: { recorder: 'mcphost exile:snapshot', roots: wanted, depth: this.depth, ...this.options.source },
      roots,
      types: Object.fromEntries([...this.types].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  private async explore(target: string, depth = 1): Promise<unknown> {
    if (this.signal.aborted)
      throw this.signal.reason instanceof Error ? this.signal.reason : new ToolError('recording cancelled', { code: 'CANCELLED' });
    this.calls++;
    return unwrapResult(await this.remote.explore({ target, depth, includePrivate: true, limit: this.items }, { signal: this.signal }));
  }

  private async listRoots(): Promise<string[]> {
    const answer = (await this.explore('', 0)) as { members?: ExploreNode[]; roots?: Array<string | ExploreNode> } | string[];
    const list = Array.isArray(answer) ? answer : (answer.members ?? answer.roots ?? []);
    const names = list
      .filter((r) => typeof r === 'string' || r.available !== false)
      .map((r) => (typeof r === 'string' ? r : (r.name ?? '')));
    return names.filter(Boolean).length > 0 ? names.filter(Boolean) : [...HUD_ROOTS];
  }

  /** Breadth-first: a batch of jobs explored in parallel, then built in queue order (deterministic ids). */
  private async drain(): Promise<void> {
    const concurrency = Math.max(1, this.options.concurrency ?? 4);
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, concurrency);
      const answers = await Promise.all(
        batch.map((job) =>
          this.explore(job.path).then(
            (node) => ({ node }),
            (error: unknown) => ({ error }),
          ),
        ),
      );
      for (let i = 0; i < batch.length; i++) {
        const job = batch[i];
        const answer = answers[i];
        if ('error' in answer) {
          if ((answer.error as ToolError)?.code === 'UNAVAILABLE' || this.signal.aborted) throw answer.error;
          this.options.logger?.warn(`skipped ${job.path}: ${(answer.error as Error).message}`);
          job.place(undefined);
          continue;
        }
        const node = answer.node as ExploreNode;
        await this.ensureTypes([node.type, ...(node.members ?? []).map((m) => m.type), ...(node.items ?? []).map((m) => m.type)]);
        job.place(this.build(node, job));
      }
      this.options.progress?.({ progress: this.calls, total: this.calls + this.queue.length, message: batch[batch.length - 1].path });
    }
  }

  private build(node: ExploreNode, job: Job): SnapshotValue {
    const type = node.type ?? 'Object';
    if (typeof node.count === 'number') return this.collection(node, type, job);
    if (!Array.isArray(node.members)) return this.leaf(node, job.path, job.depth, () => undefined, true) as SnapshotValue;
    const address = node.members.find((m) => m.name === 'Address')?.value;
    let id: number | undefined;
    if (typeof address === 'number' && address !== 0) {
      const key = `${type}@${address}`;
      const seen = this.identities.get(key);
      if (seen !== undefined) return { $ref: seen };
      id = this.identities.size + 1;
      this.identities.set(key, id);
    }
    const obj: Record<string, unknown> = { $type: type };
    if (id !== undefined) obj.$id = id;
    if (typeof node.value === 'string') obj.$value = node.value;
    for (const m of node.members) {
      if (m.available === false || !m.name) continue;
      if (!/^[A-Za-z_]\w*$/.test(m.name)) {
        this.options.logger?.debug(`skipped ${job.path}.${m.name}: not reachable by a path`);
        continue;
      }
      const name = m.name;
      const v = this.leaf(m, `${job.path}.${name}`, job.depth - 1, (x) => (x === undefined ? delete obj[name] : setOwn(obj, name, x)));
      setOwn(obj, name, v === PENDING ? null : v);
    }
    return obj as SnapshotValue;
  }

  private collection(node: ExploreNode, type: string, job: Job): SnapshotValue {
    const items = node.items ?? [];
    const isDict = items.some((it) => it.key !== undefined) || (items.length === 0 && /Dictionary|Lookup|Map</.test(type));
    const out: Record<string, unknown> = { $type: type };
    if (items.length < node.count!) out.$count = node.count;
    if (isDict) {
      const entries: Array<[unknown, unknown]> = [];
      for (const it of items) {
        const key = it.key as string | number | boolean;
        const entry: [unknown, unknown] = [key, null];
        const path = `${job.path}[${typeof key === 'string' ? JSON.stringify(key) : String(key)}]`;
        const v = this.leaf(it, path, job.depth - 1, (x) => (entry[1] = x ?? null));
        if (v !== PENDING) entry[1] = v;
        entries.push(entry);
      }
      out.$entries = entries;
    } else {
      const values: unknown[] = [];
      items.forEach((it, i) => {
        const slot = values.length;
        values.push(null);
        const v = this.leaf(it, `${job.path}[${it.index ?? i}]`, job.depth - 1, (x) => (values[slot] = x ?? null));
        if (v !== PENDING) values[slot] = v;
      });
      out.$values = values;
    }
    return out as SnapshotValue;
  }

  /** A member or item as the HUD summarised it; objects and collections are queued for their own explore. */
  private leaf(node: ExploreNode, path: string, depth: number, place: Slot, explored = false): SnapshotValue | typeof PENDING {
    const declared = node.type ?? 'Object';
    const info = this.typeOf(declared);
    const queue = (stub: SnapshotValue): SnapshotValue | typeof PENDING => {
      if (explored || depth <= 0) return stub;
      this.queue.push({ path, depth, place });
      return PENDING;
    };
    if (typeof node.count === 'number')
      return queue({
        $type: info?.type ?? declared,
        $count: node.count,
        [/Dictionary|Lookup|Map</.test(declared) ? '$entries' : '$values']: [],
      } as SnapshotValue);
    const value = node.value;
    if (value === undefined || value === null) return null;
    if (typeof value === 'object' && !Array.isArray(value))
      return structFrom(value as Record<string, unknown>, declared, (n) => this.typeOf(n));
    if (info?.kind === 'enum' && (typeof value === 'string' || typeof value === 'number')) return enumFrom(value, info);
    if (typeof value === 'string' && !isTextType(declared) && (info === undefined ? lookupWorthy(declared) : info.kind !== 'enum')) {
      return queue({ $type: info?.type ?? declared, $value: value, $truncated: true });
    }
    return value as SnapshotValue;
  }

  private typeOf(name: string): TypeInfo | undefined {
    return this.typeCache.get(name) ?? undefined;
  }

  /** Fetches type metadata for names not yet looked up, then their base types. */
  private async ensureTypes(names: Array<string | undefined>): Promise<void> {
    let todo = [...new Set(names.filter(lookupWorthy))].filter((n) => !this.typeCache.has(n));
    const inFlight = Math.max(1, this.options.concurrency ?? 4);
    while (todo.length > 0) {
      const found: Array<TypeInfo | undefined> = [];
      for (let i = 0; i < todo.length; i += inFlight) {
        const batch = todo.slice(i, i + inFlight);
        found.push(...(await Promise.all(batch.map((n) => this.explore(`type:${n}`, 0).then(normalizeTypeInfo, () => undefined)))));
      }
      const bases: string[] = [];
      todo.forEach((name, i) => {
        const info = found[i];
        this.typeCache.set(name, info ?? null);
        if (!info) return;
        this.typeCache.set(info.type, info);
        this.types.set(info.type, info);
        if (info.baseType) bases.push(info.baseType);
        for (const m of info.members ?? []) if (info.kind === 'struct') bases.push(m.type);
      });
      todo = [...new Set(bases.filter(lookupWorthy))].filter((n) => !this.typeCache.has(n));
    }
  }

  private async recordMatchingTypes(glob: string): Promise<void> {
    const answer = (await this.explore(`search:${glob}`, 0)) as { types?: Array<{ type?: string }> };
    await this.ensureTypes((answer.types ?? []).map((t) => t.type));
  }
}

/** Removes `$id`s nothing refers to, so ids mark only shared or circular objects. */
function dropUnusedIds(roots: Record<string, SnapshotValue>): void {
  const used = new Set<unknown>();
  const withId: Array<Record<string, unknown>> = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    if ('$ref' in o) return void used.add(o.$ref);
    if (o.$id !== undefined) withId.push(o);
    for (const [k, x] of Object.entries(o)) if (k !== '$type') walk(x);
  };
  walk(roots);
  for (const o of withId) if (!used.has(o.$id)) delete o.$id;
}

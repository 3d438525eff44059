// Building a recording from the HUD's answers: an explored object or collection becomes a record
// whose members and items are values, references (identity.ts), stubs (beyond the depth,
// or cut by the budget), items the HUD already showed whole (collections are explored two levels
// deep), or jobs queued for their own explore call.
import type { Logger } from '../../../../src/backend/index.js';
import type { SnapshotValue } from '../format.js';
import { setOwn } from '../model.js';
import type { CutReason, RecordBudget } from './budget.js';
import { addressOf, type Identities, type RecordNode } from './identity.js';
import type { TypeBook } from './types.js';
import { enumFrom, isPrimitiveName, isTextType, structFrom, type ExploreNode } from './values.js';

const PENDING = Symbol('pending');
/** Paths of cut objects listed in the header (the count is always complete). */
const CUT_PATHS_SHOWN = 20;

export type Slot = (v: SnapshotValue | undefined) => void;
type Built = SnapshotValue | typeof PENDING;

/** Something to explore: where its value goes, how deep it may go, what leads to it. */
export interface Job extends RecordNode {
  depth: number;
  place: Slot;
  ancestors: RecordNode[];
  collection: boolean;
  /** A collection's item count, as the HUD summarised it. */
  count?: number;
}

export interface Cut {
  reason: CutReason;
  objects: number;
  paths: string[];
}

const isDictType = (type: string) => /Dictionary|Lookup|Map</.test(type);

export class GraphBuilder {
  cut: Cut | undefined;
  depthLimited = 0;

  constructor(
    private readonly identities: Identities,
    private readonly types: TypeBook,
    private readonly budget: RecordBudget,
    private readonly enqueue: (job: Job) => void,
    private readonly logger?: Logger,
  ) {}

  cutJob(job: Job, reason: CutReason): void {
    this.cut ??= { reason, objects: 0, paths: [] };
    this.cut.objects++;
    if (this.cut.paths.length < CUT_PATHS_SHOWN) this.cut.paths.push(job.path);
    job.place(this.stub(job));
  }

  /** An object or collection recorded without its contents (beyond the depth, or cut by the budget). */
  stub(job: { type: string; text?: string; id?: number; collection?: boolean; count?: number }): SnapshotValue {
    if (job.collection)
      return {
        $type: job.type,
        ...(job.id !== undefined ? { $id: job.id } : {}),
        $count: job.count ?? 0,
        [isDictType(job.type) ? '$entries' : '$values']: [],
      } as SnapshotValue;
    return {
      $type: job.type,
      ...(job.id !== undefined ? { $id: job.id } : {}),
      ...(job.text !== undefined ? { $value: job.text } : {}),
      $truncated: true,
    } as SnapshotValue;
  }

  /** An explored object or collection, its members and items placed or queued. */
  build(node: ExploreNode, job: Job): SnapshotValue {
    const type = node.type ?? job.type;
    job.type = type;
    if (typeof node.value === 'string') job.text = node.value;
    if (typeof node.count === 'number') return this.collection(node, job);
    if (!Array.isArray(node.members)) {
      const v = node.value;
      if (v !== null && typeof v === 'object' && !Array.isArray(v))
        return structFrom(v as Record<string, unknown>, type, (n) => this.types.typeOf(n));
      return job.id !== undefined ? this.stub(job) : ((v ?? null) as SnapshotValue);
    }
    const same = this.identities.byIdentity(job, addressOf(node.members));
    if (same) return { $ref: this.identities.merge(job, same) };
    this.budget.objects++;
    const record: Record<string, unknown> = { $type: type, ...(job.id !== undefined ? { $id: job.id } : {}) };
    if (job.text !== undefined) record.$value = job.text;
    job.record = record;
    const ancestors = [...job.ancestors, job];
    for (const m of node.members) {
      if (m.available === false || !m.name) continue;
      if (!/^[A-Za-z_]\w*$/.test(m.name)) {
        this.logger?.debug(`skipped ${job.path}.${m.name}: not reachable by a path`);
        continue;
      }
      const name = m.name;
      const place: Slot = (x) => (x === undefined ? delete record[name] : setOwn(record, name, x));
      const v = this.leaf(m, `${job.path}.${name}`, job.depth - 1, ancestors, place, name);
      setOwn(record, name, v === PENDING ? null : v);
    }
    return record as SnapshotValue;
  }

  private collection(node: ExploreNode, job: Job): SnapshotValue {
    const items = node.items ?? [];
    const type = job.type;
    const isDict = items.some((it) => it.key !== undefined) || (items.length === 0 && isDictType(type));
    this.budget.objects++;
    const out: Record<string, unknown> = { $type: type, ...(job.id !== undefined ? { $id: job.id } : {}) };
    job.record = out;
    if (items.length < node.count!) out.$count = node.count;
    if (isDict) {
      const entries: Array<[unknown, unknown]> = [];
      for (const it of items) {
        const key = it.key as string | number | boolean;
        const entry: [unknown, unknown] = [key, null];
        const path = `${job.path}[${typeof key === 'string' ? JSON.stringify(key) : String(key)}]`;
        const v = this.leaf(it, path, job.depth - 1, job.ancestors, (x) => (entry[1] = x ?? null));
        if (v !== PENDING) entry[1] = v;
        entries.push(entry);
      }
      out.$entries = entries;
    } else {
      const values: unknown[] = [];
      items.forEach((it, i) => {
        const slot = values.length;
        values.push(null);
        const v = this.leaf(it, `${job.path}[${it.index ?? i}]`, job.depth - 1, job.ancestors, (x) => (values[slot] = x ?? null));
        if (v !== PENDING) values[slot] = v;
      });
      out.$values = values;
    }
    return out as SnapshotValue;
  }

  /** A member or item as the HUD summarised it: a value, a reference, a stub, an inline item, or queued. */
  private leaf(node: ExploreNode, path: string, depth: number, ancestors: RecordNode[], place: Slot, name?: string): Built {
    const declared = node.type ?? 'Object';
    const info = this.types.typeOf(declared);
    if (typeof node.count === 'number') {
      const job: Job = { path, type: info?.type ?? declared, depth, place, ancestors, collection: true, count: node.count };
      // Empty: nothing to ask the HUD.
      if (node.count === 0) return { $type: job.type, [isDictType(job.type) ? '$entries' : '$values']: [] } as SnapshotValue;
      if (depth <= 0) {
        this.depthLimited++;
        return this.stub(job);
      }
      this.enqueue(job);
      return PENDING;
    }
    const value = node.value;
    if (value === undefined || value === null) return null;
    if (typeof value === 'object' && !Array.isArray(value))
      return structFrom(value as Record<string, unknown>, declared, (n) => this.types.typeOf(n));
    if (info?.kind === 'enum' && (typeof value === 'string' || typeof value === 'number')) return enumFrom(value, info);
    const isObject =
      typeof value === 'string' && !isTextType(declared) && (info === undefined ? !isPrimitiveName(declared) : info.kind !== 'enum');
    if (!isObject) return value as SnapshotValue;
    const text = value as string;
    const same = this.identities.find(declared, text, name, ancestors);
    if (same) return 'node' in same ? { $ref: this.identities.idOf(same.node) } : this.stub(same.unrecorded);
    const job: Job = { path, type: info?.type ?? declared, text, depth, place, ancestors, collection: false };
    // A struct the HUD showed as text is still a value: recorded whole whatever the depth.
    if (depth <= 0 && info?.kind !== 'struct') {
      this.depthLimited++;
      return this.stub(job);
    }
    this.identities.addShared(declared, name, job);
    if (Array.isArray(node.members) && !node.circular) return this.build(node, job);
    this.enqueue(job);
    return PENDING;
  }
}

// What the seed leaves open about the HUD's answers (writes.ts), learned from the live HUD itself:
// after the walk, the recorder picks recorded values of each kind — one collection per collection
// type, a collection with items, an enum, a struct — and asks the HUD to eval each at the depth
// where the choice shows. At most MAX_PROBES calls; a probe that fails teaches nothing and the
// seed's form stands.
import type { ExileProvider } from '../../provider.js';
import type { SnapshotDocument, SnapshotValue } from '../format.js';
import { csharpShortName, SEED_WRITES, type HudWrites } from '../writes.js';
import { unwrapResult } from './values.js';

const MAX_PROBES = 120;
/** Values looked at while choosing probes (the walk never follows a $ref). */
const MAX_VISITED = 50_000;
const MAX_PATH_DEPTH = 6;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Samples {
  /** One path per collection type, and one collection with at least one item. */
  collections: Map<string, string>;
  withItems?: string;
  enumPath?: string;
  structPath?: string;
}

/** A path the HUD's evaluator reads: `.Member`, `["key"]`, `[3]`. */
function step(path: string, key: string | number | boolean, indexer: boolean): string {
  if (!indexer) return `${path}.${String(key)}`;
  return typeof key === 'string' ? `${path}[${JSON.stringify(key)}]` : `${path}[${String(key)}]`;
}

function samples(doc: SnapshotDocument): Samples {
  const out: Samples = { collections: new Map() };
  const queue: Array<[string, unknown, number]> = Object.entries(doc.roots).map(([name, v]) => [name, v, 0]);
  let visited = 0;
  while (queue.length > 0 && visited++ < MAX_VISITED) {
    const [path, v, level] = queue.shift()!;
    if (!isNode(v) || '$ref' in v) continue;
    const type = typeof v.$type === 'string' ? v.$type : undefined;
    const values = Array.isArray(v.$values) ? (v.$values as SnapshotValue[]) : undefined;
    const entries = Array.isArray(v.$entries) ? (v.$entries as Array<[string | number | boolean, SnapshotValue]>) : undefined;
    if (type && (values || entries)) {
      if (!out.collections.has(type)) out.collections.set(type, path);
      if (!out.withItems && (values?.length || entries?.length)) out.withItems = path;
      if (level >= MAX_PATH_DEPTH) continue;
      values?.forEach((x, i) => queue.push([step(path, i, true), x, level + 1]));
      entries?.forEach(([k, x]) => queue.push([step(path, k, true), x, level + 1]));
      continue;
    }
    if (typeof v.$enum === 'string') {
      out.enumPath ??= path;
      continue;
    }
    if (type && doc.types[type]?.kind === 'struct' && !v.$truncated) out.structPath ??= path;
    if (level >= MAX_PATH_DEPTH) continue;
    for (const [key, x] of Object.entries(v)) if (!key.startsWith('$')) queue.push([step(path, key, false), x, level + 1]);
  }
  return out;
}

const isCount = (v: unknown) => isNode(v) && typeof v.count === 'number' && !('items' in v);

/** The HUD's forms, from its own answers to a few evals of what was recorded. */
export async function learnWrites(remote: ExileProvider, doc: SnapshotDocument, signal: AbortSignal): Promise<HudWrites> {
  const found = samples(doc);
  let probes = 0;
  const ask = async (expr: string, depth: number): Promise<unknown> => {
    if (probes++ >= MAX_PROBES || signal.aborted) return undefined;
    try {
      return unwrapResult(await remote.eval({ expr, depth }, { signal }));
    } catch {
      return undefined;
    }
  };
  const writes: HudWrites = { ...SEED_WRITES };

  const texts: Record<string, string> = {};
  let counts = 0;
  for (const [type, path] of found.collections) {
    const answer = await ask(path, 0);
    if (typeof answer === 'string') texts[type] = answer;
    else if (isCount(answer)) counts++;
  }
  const typed = Object.keys(texts);
  if (typed.length > 0) {
    // One rule when every answer is the type's short name in angle brackets; else what each type answered.
    const rule = counts === 0 && typed.every((t) => texts[t] === `<${csharpShortName(t)}>`);
    writes.pastDepth = rule ? 'typeName' : { text: texts };
  }
  if (found.withItems) {
    const answer = await ask(found.withItems, 1);
    if (Array.isArray(answer) || (isNode(answer) && !('count' in answer))) writes.collections = 'bare';
  }
  if (found.enumPath && typeof (await ask(found.enumPath, 0)) === 'number') writes.enums = 'value';
  if (found.structPath && typeof (await ask(found.structPath, 0)) === 'string') writes.structs = 'text';
  return writes;
}

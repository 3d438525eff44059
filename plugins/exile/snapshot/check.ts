// The patch-day check (`mcphost exile:snapshot --check last.json`): after a game patch moves
// offsets, paths that worked stop working. The check takes the paths a snapshot holds (members
// from each root down, a dictionary's string keys, a list's first item; never through a $ref),
// asks the live HUD to explore each at depth 0, and reports those that no longer resolve and
// those whose type changed. Bounded: at most `maxPaths` paths, 8 calls in flight.
import { readFile } from 'node:fs/promises';
import { ToolError } from '../../../src/backend/index.js';
import type { ExileProvider } from '../provider.js';
import { unwrapResult } from './record/values.js';
import { csharpShortName } from './writes.js';

export interface CheckOptions {
  maxPaths: number;
  maxDepth: number;
  signal: AbortSignal;
}

export interface CheckReport {
  snapshot: string;
  checked: number;
  resolved: number;
  /** Paths the live HUD no longer resolves, with its message. */
  missing: Array<{ path: string; error: string }>;
  /** Paths whose type is not what was recorded. */
  changed: Array<{ path: string; was: string; now: string }>;
  /** More paths were held than checked. */
  truncated?: boolean;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a recorded value is, in the words the HUD's explore uses for its `type`, or a JSON kind for primitives. */
function recordedKind(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (isNode(v)) return '$ref' in v ? undefined : typeof v.$type === 'string' ? v.$type : undefined;
  return typeof v;
}

/** The live answer's kind, comparable with recordedKind. */
function liveKind(node: unknown, recorded: string): string {
  const n = isNode(node) ? node : {};
  if (recorded === 'number' || recorded === 'string' || recorded === 'boolean') {
    const value = n.value;
    return value === null || value === undefined ? recorded : typeof value === 'object' ? String(n.type ?? 'object') : typeof value;
  }
  return typeof n.type === 'string' ? n.type : 'unknown';
}

function paths(doc: { roots: Record<string, unknown> }, options: CheckOptions): { list: Array<[string, string]>; truncated: boolean } {
  const list: Array<[string, string]> = [];
  const queue: Array<[string, unknown, number]> = Object.entries(doc.roots).map(([name, v]) => [name, v, 0]);
  while (queue.length > 0) {
    const [path, v, level] = queue.shift()!;
    const kind = recordedKind(v);
    if (kind !== undefined && level > 0) {
      if (list.length >= options.maxPaths) return { list, truncated: true };
      list.push([path, kind]);
    }
    if (!isNode(v) || '$ref' in v || v.$truncated || level >= options.maxDepth) continue;
    if (Array.isArray(v.$values)) {
      if (v.$values.length > 0) queue.push([`${path}[0]`, v.$values[0], level + 1]);
    } else if (Array.isArray(v.$entries)) {
      for (const [k, x] of v.$entries as Array<[unknown, unknown]>)
        if (typeof k === 'string') queue.push([`${path}[${JSON.stringify(k)}]`, x, level + 1]);
    } else if (typeof v.$enum !== 'string') {
      for (const [key, x] of Object.entries(v)) if (!key.startsWith('$')) queue.push([`${path}.${key}`, x, level + 1]);
    }
  }
  return { list, truncated: false };
}

export async function checkSnapshot(file: string, remote: ExileProvider, options: CheckOptions): Promise<CheckReport> {
  let doc: { roots?: unknown };
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ToolError(`check: cannot read the snapshot ${file}: ${(error as Error).message}`, { code: 'INVALID_ARGUMENT' });
  }
  if (!isNode(doc) || !isNode(doc.roots))
    throw new ToolError(`check: ${file} is not an mcphost exile snapshot (it has no roots)`, { code: 'INVALID_ARGUMENT' });
  const { list, truncated } = paths(doc as { roots: Record<string, unknown> }, options);
  const report: CheckReport = {
    snapshot: file,
    checked: list.length,
    resolved: 0,
    missing: [],
    changed: [],
    ...(truncated && { truncated }),
  };
  let next = 0;
  const worker = async () => {
    while (next < list.length && !options.signal.aborted) {
      const [path, was] = list[next++];
      try {
        const node = unwrapResult(
          await remote.explore({ target: path, depth: 0, includePrivate: true, limit: 1 }, { signal: options.signal }),
        );
        report.resolved++;
        const now = liveKind(node, was);
        // An empty collection is recorded with its declared (short) type name.
        if (now !== was && csharpShortName(now) !== csharpShortName(was)) report.changed.push({ path, was, now });
      } catch (error) {
        if (options.signal.aborted) throw error;
        // The HUD said no (HUD_ERROR through the remote provider, REMOTE_ERROR from a raw answer); anything else ends the check.
        if (!(error instanceof ToolError) || (error.code !== 'REMOTE_ERROR' && error.code !== 'HUD_ERROR')) throw error;
        report.missing.push({ path, error: error.message.replace(/^exile explore: /, '') });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  options.signal.throwIfAborted();
  const at = new Map(list.map(([path], i) => [path, i]));
  const order = (a: { path: string }, b: { path: string }) => at.get(a.path)! - at.get(b.path)!;
  report.missing.sort(order);
  report.changed.sort(order);
  return report;
}

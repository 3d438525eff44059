// Offline answers equal the live HUD's: the replica of ExileApi (test/fixtures/exile-hud/replica)
// is recorded, and every eval and query of the check set (check-set.ts, from the seed's examples)
// is asked of both. The recorder learns from the HUD's own answers how it writes what the seed
// leaves open (a collection past the depth limit as "<Dictionary<String, Component>>", and the
// other forms in writes.ts); recorded without that, the snapshot answers in the seed's forms.
import { describe, expect, it } from 'vitest';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { recordSnapshot } from '../../../plugins/exile/snapshot/record/record.ts';
import { replicaProvider } from '../../fixtures/exile-hud/replica/provider.mjs';
import { CHECK_EVALS, CHECK_QUERIES } from './check-set.ts';
import { ctx, type Raw } from './fixture.ts';

const quiet = { error() {}, warn() {}, info() {}, debug() {}, child: () => quiet };
const M = CHECK_EVALS.length + CHECK_QUERIES.length;

const run = async (fn: () => unknown) => {
  try {
    return JSON.stringify(await fn());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
};

/** Where two answers part: a little of each from the first character that differs. */
function firstDifference(live: string, off: string): string {
  let i = 0;
  while (i < live.length && live[i] === off[i]) i++;
  const from = Math.max(0, i - 80);
  return `live …${live.slice(from, i + 80)} offline …${off.slice(from, i + 80)}`;
}

/** Records the replica HUD (`writes`: its forms) and compares every check, live against offline. */
async function compare(hudOptions: Record<string, unknown>, learn: boolean) {
  const remote = replicaProvider({ entities: 20, ...hudOptions });
  const doc = await recordSnapshot(remote as ExileProvider, { logger: quiet, learn });
  const offline = createSnapshotProvider(parseSnapshot(JSON.stringify(doc)));
  const monster = String(remote.hud.world.entities.findIndex((e: Raw) => e.components.has('Monster')));
  const differing: string[] = [];
  for (const [template, depth] of CHECK_EVALS) {
    const expr = template.replace('MONSTER', monster);
    const live = await run(() => remote.hud.eval({ expr, depth }));
    const off = await run(() => offline.eval({ expr, depth }, ctx()));
    if (live.startsWith('error:')) throw new Error(`the check ${expr} fails live: ${live}`);
    if (live !== off) differing.push(`eval ${expr} (depth ${depth}): ${firstDifference(live, off)}`);
  }
  for (const q of CHECK_QUERIES) {
    const args = { take: 100, skip: 0, ...q };
    const live = await run(() => remote.hud.query(args));
    const off = await run(() => offline.query(args as never, ctx()));
    if (live.startsWith('error:')) throw new Error(`the check query ${JSON.stringify(q)} fails live: ${live}`);
    if (live !== off) differing.push(`query ${JSON.stringify(q)}: ${firstDifference(live, off)}`);
  }
  await offline.close();
  return { equal: M - differing.length, differing, writes: doc.hud?.writes };
}

describe('offline answers equal the live HUD’s', () => {
  it('for every eval and query of the check set, once the recorder learned the HUD’s forms', async () => {
    const before = await compare({}, false);
    const after = await compare({}, true);
    console.info(`exile check set, the HUD's own forms: ${before.equal} of ${M} equal without learning, ${after.equal} of ${M} after`);
    expect(after.differing).toEqual([]);
    expect(before.equal).toBeLessThan(M);
    expect(before.differing.join('\n')).toContain('<Dictionary<String, Component>>');
    expect(after.writes).toEqual({ pastDepth: 'typeName', collections: 'counted', enums: 'name', structs: 'whole' });
    expect(after.differing).toEqual([]);
  });

  it('whichever forms the HUD uses: collections bare, enums by number, structs as text, past depth as { count }', async () => {
    const writes = { pastDepth: 'count', collections: 'bare', enums: 'value', structs: 'text' };
    const before = await compare({ writes }, false);
    const after = await compare({ writes }, true);
    console.info(`exile check set, other forms: ${before.equal} of ${M} equal without learning, ${after.equal} of ${M} after`);
    expect(before.equal).toBeLessThan(M);
    expect(after.writes).toEqual(writes);
    expect(after.differing).toEqual([]);
  });
});

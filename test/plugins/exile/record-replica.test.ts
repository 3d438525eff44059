// The recorder against the replica HUD (test/fixtures/exile-hud/replica: ExileApi's graph as its
// source builds it — cyclic everywhere, many objects without an address, structs), in-process:
// it always ends within its budget, says what it cut, closes cycles into references, and what it
// recorded answers offline as the live HUD answers.
import { describe, expect, it } from 'vitest';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { recordSnapshot, type RecordOptions } from '../../../plugins/exile/snapshot/record/record.ts';
import { hasAddressWord, showsAddress } from '../../../plugins/exile/snapshot/record/identity.ts';
import { replicaProvider } from '../../fixtures/exile-hud/replica/provider.mjs';
import { ctx, type Raw } from './fixture.ts';

const quiet = { error() {}, warn() {}, info() {}, debug() {}, child: () => quiet };

async function record(options: { entities: number; addresses?: boolean }, more: RecordOptions = {}) {
  const remote = replicaProvider(options);
  const doc = await recordSnapshot(remote as ExileProvider, { logger: quiet, ...more });
  const text = JSON.stringify(doc);
  return { remote, doc: JSON.parse(text) as Raw, offline: createSnapshotProvider(parseSnapshot(text)) };
}

/** The live answer and the offline one for an expression, each as its JSON (or its error message). */
async function both(live: any, offline: ExileProvider, template: string, depth = 2) {
  const monster = live.world.entities.findIndex((e: Raw) => e.components.has('Monster'));
  const expr = template.replace('MONSTER', String(monster));
  const run = async (fn: () => unknown) => {
    try {
      return JSON.stringify(await fn());
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  return [await run(() => live.eval({ expr, depth })), await run(() => offline.eval({ expr, depth }, ctx()))];
}

const SAME_ANSWERS = [
  ['Player.Pos', 0],
  ['Player.Pos', 2],
  ['Player.GetComponent<Life>().CurHP', 2],
  ['Player.Components["Life"].LifeComponentOffsetsStruct', 0],
  ['Entities[MONSTER].Components["Positioned"].GridPos', 1],
  ['Entities[MONSTER].GetComponent<Life>().Buffs', 2],
  ['Entities[MONSTER].Id', 0],
  ['Player.Components["Life"].Owner.Id', 0],
  ['IngameState.Data.LocalPlayer.RenderName', 0],
  ['GameController.Game.IngameState.Camera.Position', 1],
  ['GameController.Area.CurrentArea.DisplayName', 0],
  ['Camera.Size', 3],
  ['Player.Buffs', 1],
] as const;

describe('recording the replica of ExileApi', () => {
  it('finishes within the default budget and answers offline as the live HUD does', async () => {
    const { remote, doc, offline } = await record({ entities: 30 });
    expect(doc.source).toMatchObject({ complete: true, budget: { maxCalls: 200_000, maxObjects: 500_000, maxSeconds: 240 } });
    expect(doc.source.used.calls).toBe(remote.hud.stats.explore);
    for (const [expr, depth] of SAME_ANSWERS) {
      const [live, off] = await both(remote.hud, offline, expr, depth);
      expect(off, `${expr} at depth ${depth}`).toBe(live);
    }
  });

  it('closes the cycles into references: each object is recorded once, where it is nearest a root', async () => {
    const { doc } = await record({ entities: 12 });
    const ids = new Map<unknown, Raw>();
    const collect = (v: any) => {
      if (v === null || typeof v !== 'object') return;
      if (Array.isArray(v)) return v.forEach(collect);
      if (v.$id !== undefined) ids.set(v.$id, v);
      Object.values(v).forEach(collect);
    };
    collect(doc.roots);
    const target = (v: Raw) => ids.get(v.$ref);
    const player = doc.roots.Player;
    // The player in Entities, a component's Owner (a new Entity each read in ExileApi) and the static Entity.Player are the root.
    expect(target(doc.roots.Entities.$values[0])).toBe(player);
    const deref = (v: Raw) => (v.$ref !== undefined ? target(v)! : v);
    const life = deref(player.Components.$entries.find(([k]: [string]) => k === 'Life')[1]);
    expect(life.$type).toBe('ExileCore.PoEMemory.Components.Life');
    expect(target(life.Owner)).toBe(player);
    expect(target(player.Player)).toBe(player);
    // TheGame and Cache are recorded once (under GameController), then referred to from every memory object.
    const game = doc.roots.GameController.Game;
    expect(game.$type).toBe('ExileCore.PoEMemory.MemoryObjects.TheGame');
    expect(target(player.TheGame)).toBe(game);
    expect(target(life.TheGame)).toBe(game);
    expect(target(player.Cache)).toBe(doc.roots.GameController.Cache);
    // M is the Memory root, left out for its size: a stub, not walked again and again.
    expect(player.M).toEqual({ $type: 'ExileCore.Memory', $value: 'ExileCore.Memory', $truncated: true });
    // A cycle without addresses: EntityListWrapper keeps its GameController in a private field.
    expect(target(doc.roots.GameController.EntityListWrapper.gameController)).toBe(doc.roots.GameController);
  });

  it('a HUD that shows no Address still finishes, with the same answers', async () => {
    const { remote, doc, offline } = await record({ entities: 20, addresses: false });
    expect(doc.source.complete).toBe(true);
    expect(JSON.stringify(doc)).not.toMatch(/"_?[aA]ddress"/);
    for (const [expr, depth] of SAME_ANSWERS) {
      const [live, off] = await both(remote.hud, offline, expr, depth);
      expect(off, `${expr} at depth ${depth}`).toBe(live);
    }
  });

  it('records structs whole even at the depth limit', async () => {
    const { doc, offline } = await record({ entities: 5 }, { roots: ['Player'], depth: 1 });
    expect(doc.roots.Player.Pos).toMatchObject({ $type: 'SharpDX.Vector3', X: expect.any(Number), Y: expect.any(Number), Z: -41.9 });
    expect(doc.roots.Player.EntityOffsets.Head).toMatchObject({ $type: 'GameOffsets.ObjectHeaderOffsets', MainObject: expect.any(Number) });
    const { X, Y } = doc.roots.Player.Pos;
    expect(await offline.eval({ expr: 'Player.Pos', depth: 0 }, ctx())).toEqual({ X, Y, Z: -41.9 });
    // SharpDX.Vector3.ToString(), as ExileApi 2020 prints a position.
    expect(await offline.eval({ expr: 'Player.Pos.ToString()', depth: 0 }, ctx())).toBe(`X:${X} Y:${Y} Z:-41.9`);
  });
});

describe('the recording budget', () => {
  it('stops at --max-calls, says what it cut, and the cut objects answer "not available"', async () => {
    const { remote, doc, offline } = await record({ entities: 20 }, { maxCalls: 300 });
    expect(remote.hud.stats.explore).toBeLessThanOrEqual(300 + 8);
    expect(doc.source).toMatchObject({ complete: false, cut: { reason: 'maxCalls', objects: expect.any(Number) } });
    expect(doc.source.cut.objects).toBeGreaterThan(0);
    for (const path of doc.source.cut.paths as string[]) {
      const shown = (await offline.explore({ target: path, depth: 1, includePrivate: true, limit: 50 }, ctx())) as Raw;
      // A cut object is a stub; a cut collection keeps only its type: either says it was not recorded.
      expect(shown.truncated === true || shown.recorded === 0, `${path}: ${JSON.stringify(shown).slice(0, 200)}`).toBe(true);
    }
    // What was recorded before the cut still answers: breadth-first keeps what is nearest the roots.
    expect(await offline.eval({ expr: 'Player.Id', depth: 0 }, ctx())).toBe(1);
  });

  it('stops at --max-objects', async () => {
    const { doc } = await record({ entities: 20 }, { maxObjects: 200 });
    expect(doc.source.cut.reason).toBe('maxObjects');
    expect(doc.source.used.objects).toBeLessThan(200 + 200);
  });

  it('stops at --max-seconds even when the HUD never answers', async () => {
    const live = replicaProvider({ entities: 10 });
    let calls = 0;
    const stuck: ExileProvider = {
      ...(live as ExileProvider),
      explore: (args, c) => {
        // The listing and the roots answer; everything deeper hangs until the recorder gives up on it.
        if (++calls <= 8) return (live as ExileProvider).explore(args, c);
        return new Promise((_, reject) => c.signal.addEventListener('abort', () => reject(c.signal.reason), { once: true }));
      },
    };
    const started = performance.now();
    const doc = await recordSnapshot(stuck, { maxSeconds: 1, logger: quiet });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(doc.source).toMatchObject({ complete: false, cut: { reason: 'maxSeconds' } });
    expect(parseSnapshot(JSON.stringify(doc)).roots.size).toBeGreaterThan(0);
  });

  it('reports progress against a total that never changes, ending at 100', async () => {
    const updates: Array<{ progress: number; total?: number }> = [];
    await record({ entities: 8 }, { progress: (p) => updates.push(p) });
    expect(new Set(updates.map((u) => u.total))).toEqual(new Set([100]));
    expect(updates.map((u) => u.progress)).toEqual([...updates.map((u) => u.progress)].sort((a, b) => a - b));
    expect(updates.at(-1)!.progress).toBe(100);
  });

  it('keeps several explore calls in flight, never more than asked', async () => {
    const live = replicaProvider({ entities: 10 }) as ExileProvider;
    let inFlight = 0;
    let most = 0;
    const counting: ExileProvider = {
      ...live,
      explore: async (args, c) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        try {
          return await live.explore(args, c);
        } finally {
          inFlight--;
        }
      },
    };
    await recordSnapshot(counting, { concurrency: 5, logger: quiet });
    expect(most).toBe(5);
  });

  it('explores a collection of more than 1,000 items one level deep, then its items one by one', async () => {
    const live = replicaProvider({ entities: 1100, modules: 2 }) as ExileProvider;
    const asked: Array<[string, number]> = [];
    const logging: ExileProvider = { ...live, explore: (args, c) => (asked.push([args.target, args.depth]), live.explore(args, c)) };
    const doc = (await recordSnapshot(logging, { roots: ['Entities'], maxCalls: 40, logger: quiet })) as Raw;
    expect(asked.find(([t]) => t === 'Entities')).toEqual(['Entities', 1]);
    expect(asked.filter(([t]) => /^Entities\[\d+\]$/.test(t)).length).toBeGreaterThan(10);
    expect(doc.roots.Entities.$values).toHaveLength(1100);
  });

  it('gives the same document twice (ids and placement do not depend on timing)', async () => {
    const strip = (d: Raw) => JSON.stringify({ ...d, recordedAt: 0, source: { ...d.source, used: 0 } });
    const a = await record({ entities: 12 });
    const b = await record({ entities: 12 }, { concurrency: 3 });
    expect(strip(b.doc)).toBe(strip(a.doc));
  });
});

describe('what identifies an object by its text', () => {
  it('finds an address written as "{Address:X}", alone or inside a longer text', () => {
    expect(showsAddress('1F3400054A0', 0x1f3400054a0)).toBe(true);
    expect(showsAddress('<Monster> (Rare) Metadata/Monsters/Rhoa: (1F3400054A0)', 0x1f3400054a0)).toBe(true);
    expect(showsAddress('11F3400054A0', 0x1f3400054a0)).toBe(false);
    expect(showsAddress('1F', 0x1f)).toBe(false);
    expect(hasAddressWord('<Monster> (Rare) Metadata/Monsters/Rhoa: (1F3400054A0)')).toBe(true);
    expect(hasAddressWord('ABCDEFAB')).toBe(true);
    expect(hasAddressWord('12345678')).toBe(false);
    expect(hasAddressWord('ExileCore.GameController')).toBe(false);
    expect(hasAddressWord('x'.repeat(10_000) + ' DEADBEEF')).toBe(true);
  });
});

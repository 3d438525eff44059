// The recorder, with a snapshot provider standing in for the live HUD: recording the fixture gives
// back the same graph and type metadata, options narrow what is recorded, and failures are handled.
import { describe, expect, it } from 'vitest';
import { ToolError, UnavailableError } from '../../../src/backend/index.ts';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';
import { recordSnapshot } from '../../../plugins/exile/snapshot/record/record.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { canonical } from './canonical.ts';
import { entitiesOf, fixtureProvider, fixtureText, rawFixture, tools } from './fixture.ts';

/** Answers like the HUD does over MCP: text content holding JSON, errors as isError results. */
function asHud(provider: ExileProvider, log: string[] = []): ExileProvider {
  const wrap = (name: 'explore' | 'eval' | 'query') => async (args: any, c: any) => {
    log.push(name === 'explore' ? args.target : `${name}:${JSON.stringify(args)}`);
    try {
      return { content: [{ type: 'text', text: JSON.stringify(await provider[name](args, c)) }] };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
    }
  };
  return { explore: wrap('explore'), eval: wrap('eval'), query: wrap('query'), close: () => provider.close() };
}

const quiet = { error() {}, warn() {}, info() {}, debug() {}, child: () => quiet };

describe('recordSnapshot', () => {
  it('recording the fixture through the HUD tools gives back the same graph and type metadata', async () => {
    const original = parseSnapshot(fixtureText());
    const doc = await recordSnapshot(asHud(fixtureProvider()), { depth: 12, types: ['*'], logger: quiet });
    const recorded = parseSnapshot(JSON.parse(JSON.stringify(doc)));
    const graph = canonical(recorded, { shortEmpty: true }) as Record<string, any>;
    expect(graph.Entities.items).toHaveLength(entitiesOf(rawFixture()).length);
    expect(graph).toEqual(canonical(original, { shortEmpty: true }));
    expect(Object.fromEntries(recorded.types)).toEqual(Object.fromEntries(original.types));
    expect(doc).toMatchObject({ format: 'mcphost-exile-snapshot', version: 1, source: { depth: 12 } });
  });

  it('answers the same questions as the original', async () => {
    const doc = await recordSnapshot(fixtureProvider(), { depth: 12, logger: quiet });
    const again = tools(createSnapshotProvider(parseSnapshot(doc)));
    const first = tools(fixtureProvider());
    for (const expr of [
      'Player.GetComponent<Life>().CurHP',
      'Entities[5].Position',
      'GameController.Player.Components["Life"].Owner.Id',
      'IngameUi.InventoryPanel.Children[1].Children[2].Parent.Text',
    ]) {
      expect(await again.eval(expr), expr).toEqual(await first.eval(expr));
    }
    const q = { from: 'Entities', where: 'Distance < 50 && IsHostile', orderBy: 'Distance', take: 10 };
    expect(await again.query(q)).toEqual(await first.query(q));
  });

  it('records reachable types by default and more with type globs', async () => {
    const plain = await recordSnapshot(fixtureProvider(), { roots: ['Player'], depth: 4, logger: quiet });
    expect(Object.keys(plain.roots)).toEqual(['Player']);
    expect(plain.types['ExileCore.PoEMemory.Components.Life']).toBeDefined();
    expect(plain.types['ExileCore.PoEMemory.Component']).toBeDefined();
    expect(plain.types['GameOffsets.ActorAnimationStageOffsets']).toBeDefined();
    expect(plain.types['GameOffsets.LifeComponentOffsets']).toBeUndefined();
    expect(plain.types['ExileCore.PoEMemory.MemoryObjects.Camera']).toBeUndefined();
    const offsets = await recordSnapshot(fixtureProvider(), { roots: ['Player'], depth: 1, types: ['*Offsets'], logger: quiet });
    expect(offsets.types['GameOffsets.LifeComponentOffsets']).toEqual(rawFixture().types['GameOffsets.LifeComponentOffsets']);
  });

  it('stops at the depth asked for and says so when a deeper member is asked', async () => {
    const doc = await recordSnapshot(fixtureProvider(), { roots: ['Player'], depth: 2, logger: quiet });
    const t = tools(createSnapshotProvider(parseSnapshot(doc)));
    const raw = rawFixture();
    expect(await t.eval('Player.Id')).toBe(raw.roots.Player.Id);
    expect(await t.eval('Player.Components.Count')).toBe(raw.roots.Player.Components.$entries.length);
    await expect(t.eval('Player.GetComponent<Life>().CurHP')).rejects.toThrow(
      /^not available in a snapshot: Life\.CurHP .*record with a larger --depth/,
    );
  });

  it('records only the first items of long collections, keeping their count', async () => {
    const doc = await recordSnapshot(fixtureProvider(), { roots: ['Entities'], depth: 2, items: 7, logger: quiet });
    const t = tools(createSnapshotProvider(parseSnapshot(doc)));
    const count = entitiesOf(rawFixture()).length;
    expect(await t.eval('Entities.Count')).toBe(count);
    expect(await t.eval('Entities[6].Id')).toBe(entitiesOf(rawFixture())[6].Id);
    await expect(t.eval('Entities[7]')).rejects.toThrow(/not available in a snapshot/);
    expect(await t.query({ from: 'Entities', select: 'Id', where: 'true' })).toMatchObject({ partial: true, recorded: 7, count });
  });

  it('reports progress and refuses unknown roots', async () => {
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    await recordSnapshot(fixtureProvider(), {
      roots: ['Camera', 'IngameState'],
      depth: 3,
      progress: (p) => updates.push(p),
      logger: quiet,
    });
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.map((u) => u.progress)).toEqual([...updates.map((u) => u.progress)].sort((a, b) => a - b));
    expect(updates.every((u) => u.total !== undefined && u.total >= u.progress)).toBe(true);
    expect(updates[0].message).toMatch(/IngameState$/);
    await expect(recordSnapshot(fixtureProvider(), { roots: ['Player', 'Nope'] })).rejects.toThrow(
      /unknown root Nope: the HUD serves GameController, Player/,
    );
  });

  it('skips a member the HUD cannot read, and stops when the HUD goes away', async () => {
    const provider = fixtureProvider();
    const warnings: string[] = [];
    const flaky: ExileProvider = {
      ...provider,
      explore: async (args, c) => {
        if (args.target === 'Player.Components') throw new ToolError('Components threw');
        return provider.explore(args, c);
      },
    };
    const doc = await recordSnapshot(flaky, { roots: ['Player'], depth: 3, logger: { ...quiet, warn: (m: string) => warnings.push(m) } });
    expect(Object.keys(doc.roots.Player as object)).not.toContain('Components');
    expect(warnings).toEqual(['skipped Player.Components: Components threw']);
    let calls = 0;
    const dying: ExileProvider = {
      ...provider,
      explore: async (args, c) => {
        if (++calls > 20) throw new UnavailableError('ExileApi HUD not reachable at http://127.0.0.1:5099/mcp');
        return provider.explore(args, c);
      },
    };
    await expect(recordSnapshot(dying, { logger: quiet })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    const provider = fixtureProvider();
    let calls = 0;
    const counting: ExileProvider = {
      ...provider,
      explore: async (args, c) => {
        if (++calls === 10) abort.abort(new Error('interrupted'));
        return provider.explore(args, c);
      },
    };
    await expect(recordSnapshot(counting, { signal: abort.signal, logger: quiet })).rejects.toThrow('interrupted');
    expect(calls).toBeLessThan(20);
  });
});

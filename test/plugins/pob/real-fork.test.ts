// The pob-api fork's own stdio API, for real (never part of this project): runs only when
// POB_FORK_PATH points at the fork's src folder (see plugins/pob/README.md). mcphost spawns
// `luajit HeadlessWrapper.lua` there with POB_API_STDIO=1 and maps every tool onto its actions.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { pobSession, type PobSession } from './helpers.js';

// Empty counts as unset, as it does for mcphost itself.
const FORK = process.env.POB_FORK_PATH || undefined;
if (!FORK) console.log("pob: pob-api fork tests skipped: set POB_FORK_PATH to the fork's src folder to run them");

const BUILD = path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml');
const FIELDS = ['Life', 'EnergyShield', 'Mana', 'CombinedDPS', 'TotalEHP'];
const SLOW = 120_000;

function savedStats(file: string): Record<string, number> {
  const xml = readFileSync(file, 'utf8');
  return Object.fromEntries([...xml.matchAll(/<PlayerStat stat="(\w+)" value="([^"]+)"/g)].map((m) => [m[1], Number(m[2])]));
}

describe.skipIf(!FORK)('pob on the real pob-api fork (stdio)', () => {
  const tmp = tempDir('mcphost-pob-fork-');
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_FORK_PATH: FORK, POB_TIMEOUT_MS: '60000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it(
    'starts the fork with progress and loads a build whose stats match the saved ones',
    async () => {
      const seen: number[] = [];
      const started = (await s.client.callTool({ name: 'pob_lua_start', arguments: {} }, { onprogress: (p) => void seen.push(p.progress) }))
        .structuredContent as any;
      expect(started).toMatchObject({ mode: 'spawn', server: 'pob-api', running: true, version: { server: 'pob-api' } });
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      const info = await s.ok('pob_lua_load_build', { build_xml: BUILD });
      expect(info).toMatchObject({ name: 'occvortex-3_26', level: 99 });
      const { stats, missing } = await s.ok('pob_lua_get_stats', { fields: FIELDS });
      expect(missing).toEqual([]);
      const saved = savedStats(BUILD);
      for (const name of FIELDS) expect(stats[name]).toBeCloseTo(saved[name]!, 6);
    },
    SLOW,
  );

  it(
    'answers a what-if by edit and undo, leaving the build as it was',
    async () => {
      const tree = await s.ok('pob_lua_get_tree');
      expect(tree.masteryEffects).toEqual({});
      const before = (await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats;
      const what = await s.ok('pob_lua_calc_with', { removeNodes: [4184], fields: FIELDS });
      // Frost Walker (44955) hangs off 4184 only: PoB drops it too.
      expect(what.nodes).toEqual({ added: [], removed: [4184, 44955], unreachable: [] });
      expect(what.delta.CombinedDPS).toBeLessThan(0);
      expect(await s.ok('pob_lua_get_tree')).toEqual(tree);
      expect((await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats).toEqual(before);
    },
    SLOW,
  );

  it(
    'edits the tree, level and config, and exports a build that reloads the same',
    async () => {
      const tree = await s.ok('pob_lua_get_tree');
      const cut = await s.ok('pob_lua_update_tree_delta', { removeNodes: [4184] });
      expect(cut.deallocated).toEqual([4184, 44955]);
      const set = await s.ok('pob_lua_set_tree', {
        classId: tree.classId,
        ascendClassId: tree.ascendClassId,
        nodes: tree.nodes,
        fields: ['CombinedDPS'],
      });
      expect(set.tree).toEqual(await s.ok('pob_lua_get_tree'));
      expect(set.tree.nodes).toEqual(tree.nodes);
      expect(set.changes.CombinedDPS.delta).toBeGreaterThan(0);
      const level = await s.ok('pob_lua_set_level', { level: 90, fields: ['Life'] });
      expect(level.changes.Life.delta).toBeLessThan(0);
      expect((await s.ok('pob_lua_set_config', { input: { bandit: 'Alira' } })).input.bandit).toBe('Alira');
      const stats = (await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats;
      const exported = await s.ok('pob_lua_export_build');
      expect(exported.xml).toMatch(/level="90"/);
      await s.ok('pob_lua_load_build', { code: exported.code, name: 'again' });
      expect((await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats).toEqual(stats);
      const unknownTree = await s.fails('pob_lua_load_build', {
        build_xml: readFileSync(BUILD, 'utf8').replace(/treeVersion="3_26"/g, 'treeVersion="9_99"'),
      });
      expect(unknownTree).toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/could not load the build's passive tree/) });
    },
    SLOW,
  );
});

// Integration with a real Path of Building checkout (never part of this project): runs only when
// POB_PATH points at one (see plugins/pob/README.md), through `mcphost serve` over MCP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEnvironment } from '../../../plugins/pob/live/pob-files.ts';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { pobSession, type PobSession } from './helpers.js';

// Empty counts as unset (`POB_PATH= npm test`), as it does for mcphost itself.
const POB = process.env.POB_PATH || undefined;
if (!POB) console.log('pob: real-PoB integration tests skipped: set POB_PATH to a Path of Building Community checkout to run them');

const BUILDS = path.join(SHARED_DATA, 'pob-builds');
const CURRENT = ['occvortex-3_26.xml', 'dual-wield-cospris-coc-3_26.xml'];
const FIELDS = ['Life', 'EnergyShield', 'Mana', 'TotalEHP', 'CombinedDPS', 'Str', 'Dex', 'Int', 'Armour', 'Evasion'];
const SLOW = 180_000;

describe.skipIf(!POB)('pob on a real Path of Building', () => {
  const tmp = tempDir('mcphost-pob-real-');
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: POB, POB_TIMEOUT_MS: '60000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(CURRENT)(
    'recomputes the saved <PlayerStat> values of %s within 1e-6',
    async (file) => {
      const xml = readFileSync(path.join(BUILDS, file), 'utf8');
      const saved = [...xml.matchAll(/<PlayerStat\s/g)].length;
      const report = await s.ok('pob_lua_verify_build', { build: path.join(BUILDS, file) });
      const bad = report.rows.filter((r: { ok: boolean }) => !r.ok);
      expect(bad).toEqual([]);
      expect(report).toMatchObject({ agrees: true, total: saved, matching: saved, tolerance: 1e-6 });
    },
    SLOW,
  );

  it(
    'calc_with predicts a persistent edit exactly and leaves the build unchanged',
    async () => {
      await s.ok('pob_lua_load_build', { build_xml: path.join(BUILDS, 'occvortex-3_26.xml') });
      const startStats = (await s.ok('pob_lua_get_stats')).stats;
      const startXml = (await s.ok('pob_lua_export_build')).xml;
      const tree = await s.ok('pob_lua_get_tree');
      let node: number | undefined;
      let prediction: any;
      for (const id of tree.nodes as number[]) {
        prediction = await s.ok('pob_lua_calc_with', { removeNodes: [id], fields: FIELDS });
        if (prediction.delta.Life || prediction.delta.CombinedDPS) {
          node = id;
          break;
        }
      }
      expect(node).toBeDefined();
      expect((await s.ok('pob_lua_get_stats')).stats).toEqual(startStats);
      expect((await s.ok('pob_lua_export_build')).xml).toBe(startXml);

      const edit = await s.ok('pob_lua_update_tree_delta', { removeNodes: [node], fields: FIELDS });
      expect(edit.deallocated).toEqual(prediction.nodes.removed);
      const now = (await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats;
      expect(now).toEqual(prediction.after);
      expect(now).not.toEqual(prediction.before);

      const back = await s.ok('pob_lua_calc_with', { addNodes: [node], fields: FIELDS });
      const readd = await s.ok('pob_lua_update_tree_delta', { addNodes: [node], fields: FIELDS });
      expect(readd.allocated).toEqual(back.nodes.added);
      expect((await s.ok('pob_lua_get_stats', { fields: FIELDS })).stats).toEqual(back.after);

      const restored = await s.ok('pob_lua_set_tree', {
        classId: tree.classId,
        ascendClassId: tree.ascendClassId,
        nodes: tree.nodes,
        masteryEffects: tree.masteryEffects,
        treeVersion: tree.treeVersion,
      });
      expect(restored.tree.points).toBe(tree.points);
      expect((await s.ok('pob_lua_get_stats')).stats).toEqual(startStats);
    },
    SLOW,
  );

  it(
    'exports XML and a share code that reload to the same stats',
    async () => {
      await s.ok('pob_lua_load_build', { build_xml: path.join(BUILDS, 'dual-wield-cospris-coc-3_26.xml') });
      await s.ok('pob_lua_set_level', { level: 95 });
      await s.ok('pob_lua_set_config', { input: { useFrenzyCharges: true } });
      const stats = (await s.ok('pob_lua_get_stats')).stats;
      const exported = await s.ok('pob_lua_export_build');
      await s.ok('pob_lua_load_build', { build_xml: path.join(BUILDS, 'occvortex-3_26.xml') });
      await s.ok('pob_lua_load_build', { build_xml: exported.xml });
      expect((await s.ok('pob_lua_get_stats')).stats).toEqual(stats);
      await s.ok('pob_lua_load_build', { code: exported.code });
      expect((await s.ok('pob_lua_get_stats')).stats).toEqual(stats);
      expect((await s.ok('pob_lua_get_build_info')).level).toBe(95);
      const verify = await s.ok('pob_lua_verify_build', { build: exported.xml });
      expect(verify.agrees).toBe(true);
    },
    SLOW,
  );

  it(
    'reports an unknown tree version as a load failure and loads the next build',
    async () => {
      const xml = readFileSync(path.join(BUILDS, 'occvortex-3_26.xml'), 'utf8').replace('treeVersion="3_26"', 'treeVersion="9_99"');
      const failed = await s.fails('pob_lua_load_build', { build_xml: xml });
      expect(failed).toMatchObject({ code: 'LOAD_FAILED', message: expect.stringMatching(/Unknown Passive Tree Version/) });
      expect((await s.ok('pob_lua_load_build', { build_xml: path.join(BUILDS, 'occvortex-3_26.xml') })).ascendClassName).toBe('Occultist');
    },
    SLOW,
  );

  it(
    'reloads the build from the store after a planned restart',
    async () => {
      const r = await pobSession(tmp.dir, {
        POB_LUA_ENABLED: '1',
        POB_PATH: POB,
        POB_TIMEOUT_MS: '60000',
        POB_RESTART_AFTER_LOADS: '1',
        POB_WORKERS: '1',
      });
      try {
        const before = await r.ok('pob_lua_start');
        await r.ok('pob_lua_load_build', { build_xml: path.join(BUILDS, 'occvortex-3_26.xml') });
        // The load reached the limit: the worker restarts, and the next call reloads the build there.
        const { stats } = await r.ok('pob_lua_get_stats', { fields: ['Life', 'CombinedDPS'] });
        const saved = readFileSync(path.join(BUILDS, 'occvortex-3_26.xml'), 'utf8');
        expect(stats.Life).toBe(Number(/stat="Life" value="([^"]+)"/.exec(saved)![1]));
        expect(stats.CombinedDPS).toBeCloseTo(Number(/stat="CombinedDPS" value="([^"]+)"/.exec(saved)![1]), 6);
        const after = await r.ok('pob_lua_start');
        expect(after.pid).not.toBe(before.pid);
        // After the load, and after the reload that get_stats needed.
        expect(after.restarts.planned).toBe(2);
      } finally {
        await r.close();
      }
    },
    SLOW,
  );

  it(
    'makes share codes that PoB itself decodes (its base64 module and Inflate)',
    async () => {
      const xml = readFileSync(path.join(BUILDS, 'occvortex-3_26.xml'), 'utf8');
      const code = await s.ok('pob_encode', { xml });
      const { cwd, env } = spawnEnvironment(POB!);
      const script =
        'local b64 = require("base64"); local zlib = require("zlib"); local code = io.read("*a"); io.write((zlib.inflate()(b64.decode((code:gsub("-", "+"):gsub("_", "/"))))))';
      const decoded = await execa('luajit', ['-e', script], { cwd, env, input: code });
      expect(decoded.stdout).toBe(xml.trim());
    },
    SLOW,
  );
});

// The pob_lua_* tools through `mcphost serve` over MCP (the SDK client), with the real luajit
// running the project's Lua server on the fake PoB in test/fixtures/pob/fake-pob. One worker
// here, so process details (pids, restarts) are exact; the pool is tested in pool.test.ts.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { decodeShareCode } from '../../../plugins/pob/build/share-code.ts';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, gone, pobSession, type PobSession } from './helpers.js';

const tmp = tempDir('mcphost-pob-fake-');
const life = (level: number, smallNodes: number) => 38 + 12 * level + 10 * smallNodes;
const LUA_TOOLS = [
  'start',
  'stop',
  'load_build',
  'get_stats',
  'get_tree',
  'set_tree',
  'update_tree_delta',
  'calc_with',
  'export_build',
  'get_build_info',
  'set_level',
  'get_config',
  'set_config',
  'verify_build',
];

describe('pob Lua tools on the fake PoB', () => {
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists every pob_lua_* tool next to the XML tools', async () => {
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    for (const t of LUA_TOOLS) expect(names).toContain(`pob_lua_${t}`);
    expect(names).toEqual(expect.arrayContaining(['pob_decode', 'pob_encode', 'pob_analyze_build', 'pob_compare_builds']));
  });

  it('answers NO_BUILD before a build is loaded, then loads one from a file', async () => {
    const none = await s.fails('pob_lua_get_stats');
    expect(none).toMatchObject({ code: 'NO_BUILD', message: expect.stringMatching(/no build is loaded/) });
    const file = tmp.write('fake.xml', fakeBuild({ level: 90 }));
    const info = await s.ok('pob_lua_load_build', { build_xml: file });
    expect(info.build_id).toMatch(/^[0-9a-f]{32}$/);
    expect(info).toMatchObject({
      className: 'Witch',
      ascendClassName: 'Occultist',
      level: 90,
      mainSkill: 'Fake Bolt',
      treeVersion: '3_26',
    });
    expect(info.skills[0].gems[0]).toMatchObject({ name: 'Fake Bolt', level: 20, quality: 20, enabled: true });
    const started = await s.ok('pob_lua_start');
    expect(started).toMatchObject({ mode: 'spawn', running: true, version: { pob: { version: '0.0.1-fake' }, loaded: true } });
    expect(started.pid).toBeGreaterThan(0);
  });

  it('reads stats by name, including PlayerStat names built from a child stat', async () => {
    const { stats, missing } = await s.ok('pob_lua_get_stats', { fields: ['Life', 'EnergyShield', 'MainHandAccuracy', 'NoSuchStat'] });
    expect(stats).toEqual({ Life: life(90, 3), EnergyShield: 50, MainHandAccuracy: 9000 });
    expect(missing).toEqual(['NoSuchStat']);
    const all = await s.ok('pob_lua_get_stats', { display: true });
    expect(all.stats.CombinedDPS).toBe(90_000 * 1.05);
    expect(all.display.map((d: { stat: string }) => d.stat)).toEqual(['Life', 'CombinedDPS', 'MainHandAccuracy']);
  });

  it('computes a what-if without changing the build', async () => {
    const before = await s.ok('pob_lua_export_build');
    const what = await s.ok('pob_lua_calc_with', { addNodes: [5, 6, 1000], removeNodes: [401], fields: ['Life', 'CombinedDPS'] });
    expect(what.before.Life).toBe(life(90, 3));
    expect(what.after.Life).toBe(life(90, 5));
    expect(what.delta).toEqual({ Life: 20, CombinedDPS: -90_000 * 0.05 });
    expect(what.nodes).toEqual({ added: [5, 6], removed: [401], unreachable: [1000] });
    const after = await s.ok('pob_lua_export_build');
    expect(after.xml).toBe(before.xml);
    expect(await decodeShareCode(after.code)).toBe(after.xml);
  });

  it('edits the tree along paths and with dependants, and replaces it exactly', async () => {
    const added = await s.ok('pob_lua_update_tree_delta', { addNodes: [10] });
    expect(added.allocated).toEqual([9, 10]);
    expect(added.changes.Life).toEqual({ before: life(90, 3), after: life(90, 5), delta: 20 });
    const removed = await s.ok('pob_lua_update_tree_delta', { removeNodes: [1] });
    expect(removed.deallocated).toEqual([1, 2]);
    const bad = await s.fails('pob_lua_update_tree_delta', { addNodes: [77777] });
    expect(bad).toMatchObject({ code: 'UNKNOWN_NODES', message: expect.stringMatching(/no node with id 77777/) });
    const mastery = await s.ok('pob_lua_update_tree_delta', { masteryEffects: { '501': 9501 } });
    expect(mastery.allocated).toEqual([501]);
    expect(mastery.changes.EnergyShield).toMatchObject({ before: 50, after: 100 });
    const wrongEffect = await s.fails('pob_lua_update_tree_delta', { masteryEffects: { '502': 1 } });
    expect(wrongEffect.message).toMatch(/1 is not an effect of mastery 502/);
    const set = await s.ok('pob_lua_set_tree', { classId: 1, ascendClassId: 1, nodes: [1, 2, 3, 4], fields: ['Life'] });
    expect(set.tree).toMatchObject({ classId: 1, className: 'Marauder', ascendClassName: 'Juggernaut', points: 4 });
    expect(set.changes.Life.after).toBe(life(90, 4));
    const tree = await s.ok('pob_lua_get_tree');
    expect(tree).toMatchObject({ nodes: [1, 2, 3, 4], classId: 1, masteryEffects: {} });
    // set_tree reports the tree exactly as get_tree reads it, nodes and masteries included.
    expect(set.tree).toEqual(tree);
    expect(mastery.tree.masteryEffects).toEqual({ '500': 9500, '501': 9501 });
    expect((await s.fails('pob_lua_set_tree', { classId: 1, ascendClassId: 4, nodes: [] })).message).toMatch(
      /Marauder has no ascendClassId 4/,
    );
  });

  it('sets level and config, and rejects unknown options without changing anything', async () => {
    const level = await s.ok('pob_lua_set_level', { level: 10, fields: ['Life'] });
    expect(level).toMatchObject({ level: 10, changes: { Life: { after: life(10, 4) } } });
    const config = await s.ok('pob_lua_set_config', {
      input: { useFrenzyCharges: true, enemyIsBoss: 'Pinnacle' },
      fields: ['CombinedDPS'],
    });
    expect(config.changes.CombinedDPS.after).toBeCloseTo(10_000 * 1.2 * 0.5, 6);
    const bad = await s.fails('pob_lua_set_config', { input: { nope: 1, useFrenzyCharges: 3, enemyIsBoss: 'Nobody' } });
    expect(bad.code).toBe('BAD_CONFIG');
    expect(bad.message).toMatch(
      /enemyIsBoss: expects one of None, Boss, Pinnacle; nope: unknown config option; useFrenzyCharges: expects true or false/,
    );
    expect((await s.ok('pob_lua_get_config')).input).toMatchObject({ useFrenzyCharges: true, enemyIsBoss: 'Pinnacle' });
    await s.ok('pob_lua_set_config', { input: { useFrenzyCharges: null } });
    expect((await s.ok('pob_lua_get_config')).input.useFrenzyCharges).toBeUndefined();
  });

  it('checks arguments before anything reaches Lua', async () => {
    const level = await s.fails('pob_lua_set_level', { level: 0 });
    expect(level.code).toBe('INVALID_ARGUMENTS');
    expect(level.message).toMatch(/level/);
    expect((await s.fails('pob_lua_load_build', { build_xml: fakeBuild(), code: 'eNx' })).message).toMatch(
      /exactly one of build_xml, code or build_id/,
    );
    expect((await s.fails('pob_lua_load_build', { code: 'not a code at all' })).code).toBe('BAD_SHARE_CODE');
    expect((await s.fails('pob_lua_calc_with', {})).message).toMatch(/addNodes or removeNodes/);
  });

  it('exports XML that reloads to the same stats, and verifies saved stats against PoB', async () => {
    const exported = await s.ok('pob_lua_export_build');
    const stats = (await s.ok('pob_lua_get_stats')).stats;
    await s.ok('pob_lua_load_build', { code: exported.code });
    expect((await s.ok('pob_lua_get_stats')).stats).toEqual(stats);
    const report = await s.ok('pob_lua_verify_build', { build: exported.xml });
    expect(report).toMatchObject({ agrees: true, total: 8, matching: 8, pobVersion: '0.0.1-fake' });
    const doctored = exported.xml.replace(/(stat="Life" value=")(\d+)/, (_: string, a: string, v: string) => `${a}${Number(v) + 10}`);
    const off = await s.tool('pob_lua_verify_build', { build: doctored });
    expect(off.structuredContent).toMatchObject({ agrees: false, matching: 7, differing: 1 });
    expect(off.structuredContent!.rows.find((r: { stat: string }) => r.stat === 'Life')).toMatchObject({
      ok: false,
      saved: stats.Life + 10,
      computed: stats.Life,
    });
    expect(off.content[0].text).toMatch(/^7\/8 saved stats match PoB 0.0.1-fake.*\n  Life: saved/s);
    expect((await s.fails('pob_lua_verify_build', { build: fakeBuild() })).code).toBe('NO_SAVED_STATS');
  });

  it('reports load failures that PoB shows only as prompts and dialogs, and keeps working', async () => {
    expect(await s.fails('pob_lua_load_build', { build_xml: fakeBuild({ fake: 'fail' }) })).toMatchObject({
      code: 'LOAD_FAILED',
      message: 'Path of Building could not load the build: fake PoB refuses this build',
    });
    expect((await s.fails('pob_lua_load_build', { build_xml: fakeBuild({ fake: 'popup' }) })).message).toMatch(
      /Unknown Passive Tree Version: The build uses an unrecognised version/,
    );
    expect((await s.fails('pob_lua_get_stats')).code).toBe('NO_BUILD');
    expect((await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 3 }) })).level).toBe(3);
  });

  it('stops idempotently and starts again on the next call', async () => {
    const { pid } = await s.ok('pob_lua_start');
    expect(await s.ok('pob_lua_stop')).toEqual({ stopped: true });
    expect(await s.ok('pob_lua_stop')).toEqual({ stopped: false });
    expect(await gone(pid)).toBe(true);
    expect((await s.fails('pob_lua_get_stats')).code).toBe('NO_BUILD');
    expect((await s.ok('pob_lua_start')).pid).not.toBe(pid);
  });
});

describe('pob Lua process failures', () => {
  it('kills a hung PoB, says so, and starts afresh; reports a crash with its exit code and stderr', async () => {
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1', POB_LOAD_TIMEOUT_MS: '1500' });
    try {
      const before = await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 20 }) });
      const { pid } = await s.ok('pob_lua_start');
      const hung = await s.fails('pob_lua_load_build', { build_xml: fakeBuild({ fake: 'hang' }) });
      expect(hung.code).toBe('LUA_TIMEOUT');
      expect(hung.message).toMatch(
        /gave no answer to pob_lua_load_build within 1500 ms; that worker was stopped and starts afresh on the next call, and the next load gets 3000 ms/,
      );
      expect(await gone(pid)).toBe(true);
      const lost = await s.fails('pob_lua_get_stats');
      expect(lost.message).toMatch(
        /no build is loaded: load one first with pob_lua_load_build \(this client's last load failed: PoB gave no answer to pob_lua_load_build/,
      );
      // The build loaded before the hang was never lost: it is a value in the store.
      expect((await s.ok('pob_lua_get_stats', { build_id: before.build_id, fields: ['Life'] })).stats.Life).toBe(life(20, 3));
      const next = await s.ok('pob_lua_start');
      expect(next.pid).not.toBe(pid);
      expect(next.restarts).toMatchObject({ timeouts: 1 });

      await s.ok('pob_lua_load_build', { build_xml: fakeBuild() });
      const crash = await s.fails('pob_lua_load_build', { build_xml: fakeBuild({ fake: 'crash' }) });
      expect(crash.code).toBe('LUA_EXITED');
      expect(crash.message).toMatch(
        /exited with code 3 during pob_lua_load_build; it starts afresh on the next call; last stderr lines:\n(.*\n)*fake PoB: crashing on purpose/,
      );
      expect(crash.data).toMatchObject({ exitCode: 3, stderr: expect.arrayContaining(['fake PoB: crashing on purpose']) });
      expect((await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 7 }) })).level).toBe(7);
      expect((await s.ok('pob_analyze_build', { build: fakeBuild() })).className).toBe('Witch');
    } finally {
      await s.close();
    }
  });

  it('queues concurrent calls: one request at a time on one worker, each answer to its own call', async () => {
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1' });
    try {
      const levels = [11, 12, 13, 14];
      const answers = await Promise.all(
        levels.map((level) => s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level, fake: 'sleep:150' }) })),
      );
      expect(answers.map((a) => a.level)).toEqual(levels);
      expect(answers.map((a) => a.loads).sort()).toEqual([1, 2, 3, 4]);
    } finally {
      await s.close();
    }
  });

  it('restarts after N loads and above the memory limit; the build reloads from the store', async () => {
    const s = await pobSession(tmp.dir, {
      POB_LUA_ENABLED: '1',
      POB_PATH: FAKE_POB,
      POB_WORKERS: '1',
      POB_RESTART_AFTER_LOADS: '2',
      POB_MAX_RSS_MB: '64',
    });
    try {
      await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 50 }) });
      const first = (await s.ok('pob_lua_start')).pid;
      await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 60 }) });
      const stats = (await s.ok('pob_lua_get_stats', { fields: ['Life'] })).stats;
      expect(stats.Life).toBe(life(60, 3));
      const second = await s.ok('pob_lua_start');
      expect(second.pid).not.toBe(first);
      expect(second.restarts.planned).toBe(1);
      expect(await gone(first)).toBe(true);

      // An edit, then memory growth past the limit: the edited build survives the restart.
      await s.ok('pob_lua_update_tree_delta', { removeNodes: [1] });
      await s.ok('pob_lua_set_config', { input: { fakeGrowMb: 100 } });
      const after = await s.ok('pob_lua_get_stats', { fields: ['Life'] });
      expect(after.stats.Life).toBe(life(60, 1));
      const third = await s.ok('pob_lua_start');
      expect(third.pid).not.toBe(second.pid);
      expect(third.restarts.planned).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('leaves no luajit behind when the client goes away or the host is killed', async () => {
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '2' });
    const { workers } = await s.ok('pob_lua_start');
    expect(workers).toHaveLength(2);
    await s.close();
    for (const { pid } of workers) expect(await gone(pid)).toBe(true);

    const k = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '2' }, { binary: true });
    const others = (await k.ok('pob_lua_start')).workers;
    process.kill(k.transport!.pid!, 'SIGKILL');
    for (const { pid } of others) expect(await gone(pid)).toBe(true);
    await k.close().catch(() => undefined);
  });
});

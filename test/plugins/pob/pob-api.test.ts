// The pob-api fork of Path of Building (the API a PoB GUI serves over TCP, and its stdio twin),
// through a replica written from the fork's source (test/fixtures/pob/pob-api-replica.js cites the
// files and commits): the wire as the fork speaks it, every pob_lua_* tool against a PoB GUI over
// TCP, and the fork's own stdio API spawned by mcphost (POB_FORK_PATH, POB_ARGS).
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURES } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { fakeBuild, pobSession, type PobSession } from './helpers.js';
import { ReplicaBuild, startReplicaTcp } from '../../fixtures/pob/pob-api-replica.js';

const REPLICA = path.join(FIXTURES, 'pob/pob-api-replica.js');
const tmp = tempDir('mcphost-pob-api-');
const life = (level: number, small: number) => 38 + 12 * level + 10 * small;
const WITCH_START = 57264;

/** Lines a raw socket receives, awaited one by one. */
function lineReader(socket: Socket) {
  const lines: string[] = [];
  let buffer = '';
  let wake: (() => void) | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
    wake?.();
  });
  return async (): Promise<any> => {
    while (lines.length === 0) await new Promise<void>((r) => (wake = r));
    return JSON.parse(lines.shift()!);
  };
}

describe('the replica speaks as the fork does', () => {
  it('greets first, answers without ids in request order, refuses loads in the GUI, disconnects on quit', async () => {
    const replica = await startReplicaTcp({ frameMs: 2 });
    try {
      const socket = connect(replica.port, '127.0.0.1');
      const next = lineReader(socket);
      const closed = new Promise((r) => socket.on('close', r));
      const send = (m: object) => socket.write(`${JSON.stringify(m)}\n`);
      send({ id: 7, action: 'ping' });
      send({ id: 8, action: 'nope', params: {} });
      send({ action: 'load_build_xml', params: { xml: '<PathOfBuilding/>' } });
      socket.write('not json\n');
      send({ action: 'get_tree' });
      send({ action: 'calc_with', params: { removeNodes: [1] } });
      send({ action: 'get_config' });
      send({ action: 'quit' });
      expect(await next()).toEqual({
        ok: true,
        ready: true,
        version: { number: '2.56.0', branch: 'dev', platform: 'linux', apiVersion: '1.0.0', mode: 'tcp' },
      });
      expect(await next()).toEqual({ ok: true, pong: true });
      expect(await next()).toEqual({ ok: false, error: 'unknown action: nope' });
      expect((await next()).error).toMatch(/^Use the PoB GUI to open\/create builds in TCP mode/);
      expect(await next()).toEqual({ ok: false, error: 'invalid json' });
      // dkjson writes PoB's empty mastery table as a list.
      expect(await next()).toEqual({ ok: true, tree: expect.objectContaining({ nodes: [58833], masteryEffects: [] }) });
      // calc_with's answer (PoB's output, with its reference cycle) never comes: the frame fails.
      expect(await next()).toMatchObject({ ok: true, config: { enemyLevel: 84 } });
      expect(await next()).toEqual({ ok: true, message: 'disconnected' });
      await closed;
      expect(replica.errors).toEqual(["In 'OnFrame': reference cycle"]);
    } finally {
      await replica.close();
    }
  });
});

describe('pob_lua_* tools against a PoB GUI serving the fork’s TCP API', () => {
  let replica: Awaited<ReturnType<typeof startReplicaTcp>>;
  let s: PobSession;
  beforeAll(async () => {
    const build = new ReplicaBuild();
    build.loadXml(fakeBuild({ level: 40 }));
    Object.assign(build, { name: 'open in the GUI' });
    replica = await startReplicaTcp({ frameMs: 2, build });
    s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_API_TCP: '1', POB_API_TCP_PORT: String(replica.port) });
  });
  afterAll(async () => {
    await s?.close();
    await replica?.close();
  });

  it('connects, reads the banner, and reports what it speaks', async () => {
    const started = await s.ok('pob_lua_start');
    expect(started).toMatchObject({
      mode: 'tcp',
      server: 'pob-api',
      running: true,
      banner: { ready: true, version: { mode: 'tcp' } },
      version: { server: 'pob-api', pob: { version: '2.56.0' }, api: { version: '1.0.0', mode: null } },
    });
    const health = (await s.registry!.health()).pob;
    expect(health.message).toMatch(/PoB GUI answers at 127.0.0.1:\d+ \(the pob-api fork's TCP API\)/);
  });

  it('reads stats, tree, build info and config in the tools’ shapes', async () => {
    const [named, all, tree, info, config] = await Promise.all([
      s.ok('pob_lua_get_stats', { fields: ['Life', 'MainHandAccuracy', 'Minion.Life', 'AverageHit'] }),
      s.ok('pob_lua_get_stats'),
      s.ok('pob_lua_get_tree'),
      s.ok('pob_lua_get_build_info'),
      s.ok('pob_lua_get_config'),
    ]);
    expect(named).toEqual({ stats: { Life: life(40, 3), MainHandAccuracy: 4000 }, missing: ['Minion.Life', 'AverageHit'] });
    expect(all.stats).toMatchObject({ Life: life(40, 3), CombinedDPS: 40_000 * 1.05, EnergyShield: 50 });
    expect(all.stats._meta).toBeUndefined();
    expect(tree).toEqual({
      treeVersion: '3_26',
      classId: 3,
      ascendClassId: 1,
      secondaryAscendClassId: 0,
      nodes: [1, 2, 3, 401, 500, WITCH_START],
      masteryEffects: { '500': 9500 },
    });
    expect(info).toEqual({ name: 'open in the GUI', level: 40, treeVersion: '3_0' });
    expect(config).toEqual({ input: { bandit: 'None', pantheonMajorGod: 'None', pantheonMinorGod: 'None', enemyLevel: 84 } });
  });

  it('edits the tree; set_tree returns the tree exactly as get_tree reads it', async () => {
    const added = await s.ok('pob_lua_update_tree_delta', { addNodes: [4, 10], fields: ['Life'] });
    expect(added).toMatchObject({ allocated: [4], deallocated: [], unreachable: [10], changes: { Life: { delta: 10 } } });
    const cut = await s.ok('pob_lua_update_tree_delta', { removeNodes: [2] });
    // PoB drops what the removal cut off from the class start.
    expect(cut.deallocated).toEqual([2, 3, 4]);
    const set = await s.ok('pob_lua_set_tree', {
      classId: 3,
      ascendClassId: 1,
      nodes: [1, 2, 3, 4, 5, 500],
      fields: ['Life', 'EnergyShield'],
    });
    expect(set.tree).toEqual(await s.ok('pob_lua_get_tree'));
    expect(set).toMatchObject({ allocated: [2, 3, 4, 5], unknownNodes: [], changes: { Life: { after: life(40, 5) } } });
    expect(set.tree.masteryEffects).toEqual({ '500': 9500 });
    const mastery = await s.fails('pob_lua_set_tree', { classId: 3, ascendClassId: 1, nodes: [1, 500], masteryEffects: { '500': 9600 } });
    expect(mastery).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/cannot set mastery effects/) });
    expect((await s.fails('pob_lua_update_tree_delta', { masteryEffects: { '501': 9501 } })).code).toBe('INVALID_ARGUMENT');
  });

  it('computes a what-if by editing and undoing, never sending the fork’s calc_with', async () => {
    const tree = await s.ok('pob_lua_get_tree');
    const stats = (await s.ok('pob_lua_get_stats')).stats;
    const what = await s.ok('pob_lua_calc_with', { addNodes: [6, 402], removeNodes: [3], fields: ['Life', 'CombinedDPS'] });
    expect(what.nodes).toEqual({ added: [402], removed: [3, 4, 5], unreachable: [6] });
    expect(what.delta).toEqual({ Life: -30, CombinedDPS: 40_000 * 0.05 });
    expect(await s.ok('pob_lua_get_tree')).toEqual(tree);
    expect((await s.ok('pob_lua_get_stats')).stats).toEqual(stats);
    expect(replica.errors).toEqual([]);
  });

  it('sets level and the config the fork knows, exports, and says what it cannot do', async () => {
    expect(await s.ok('pob_lua_set_level', { level: 10, fields: ['Life'] })).toEqual({
      level: 10,
      changes: { Life: { before: life(40, 5), after: life(10, 5), delta: -360 } },
    });
    expect((await s.ok('pob_lua_set_config', { input: { bandit: 'Alira' } })).input.bandit).toBe('Alira');
    const unknown = await s.fails('pob_lua_set_config', { input: { useFrenzyCharges: true, bandit: 'Oak' } });
    expect(unknown).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringMatching(/sets only bandit, .*; not useFrenzyCharges/) });
    const exported = await s.ok('pob_lua_export_build');
    expect(exported.xml).toMatch(/<Build level="10"/);
    expect(exported.code).toMatch(/^eN/);
    const load = await s.fails('pob_lua_load_build', { build_xml: fakeBuild() });
    expect(load).toMatchObject({
      code: 'POB_ERROR',
      message: 'Use the PoB GUI to open/create builds in TCP mode. In TCP mode you work with the build already open in PoB.',
    });
    expect((await s.fails('pob_lua_verify_build', { build: exported.xml })).message).toMatch(/^Use the PoB GUI/);
  });

  it('only disconnects on stop, and reopens a closed connection on the next call', async () => {
    const before = replica.connections;
    expect(await s.ok('pob_lua_stop')).toEqual({ stopped: false, disconnected: true });
    expect((await s.ok('pob_lua_get_build_info')).level).toBe(10);
    expect(replica.connections).toBe(before + 1);
    replica.dropClients();
    await vi.waitFor(() => expect(replica.openSockets()).toBe(0));
    expect((await s.ok('pob_lua_get_stats', { fields: ['Life'] })).stats.Life).toBe(life(10, 5));
    expect(replica.connections).toBe(before + 2);
  });
});

describe('a PoB GUI that stops answering', () => {
  it('times out, closes the connection, and never takes the late answer for the next call', async () => {
    const build = new ReplicaBuild();
    build.loadXml(fakeBuild({ level: 20 }));
    const replica = await startReplicaTcp({ frameMs: 2, build });
    const s = await pobSession(tmp.dir, {
      POB_LUA_ENABLED: '1',
      POB_API_TCP: '127.0.0.1',
      POB_API_TCP_PORT: String(replica.port),
      POB_TIMEOUT_MS: '300',
    });
    try {
      expect((await s.ok('pob_lua_get_build_info')).level).toBe(20);
      replica.pause();
      const stuck = await s.fails('pob_lua_get_tree');
      expect(stuck).toMatchObject({
        code: 'LUA_TIMEOUT',
        message: expect.stringMatching(/^PoB at 127.0.0.1:\d+ gave no answer to pob_lua_get_tree within 300 ms; the connection was closed/),
      });
      replica.resume();
      // The paused frame's get_tree is answered on the old connection, which is gone.
      expect(await s.ok('pob_lua_get_config')).toMatchObject({ input: { enemyLevel: 84 } });
      expect(replica.connections).toBe(2);
    } finally {
      await s.close();
      await replica.close();
    }
  });
});

describe('a what-if cancelled half-way', () => {
  it('still undoes its edit before the next call runs', async () => {
    const build = new ReplicaBuild();
    build.loadXml(fakeBuild({ level: 20 }));
    const cancel = new AbortController();
    const replica = await startReplicaTcp({
      frameMs: 2,
      build,
      onRequest: (m: { action: string }) => m.action === 'update_tree_delta' && cancel.abort('the user gave up'),
    });
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_API_TCP: '1', POB_API_TCP_PORT: String(replica.port) });
    try {
      const tree = await s.ok('pob_lua_get_tree');
      const what = s.client.callTool({ name: 'pob_lua_calc_with', arguments: { removeNodes: [1] } }, { signal: cancel.signal });
      await expect(what).rejects.toThrow();
      expect(await s.ok('pob_lua_get_tree')).toEqual(tree);
    } finally {
      await s.close();
      await replica.close();
    }
  });
});

describe("the fork's own stdio API, spawned by mcphost", () => {
  const fork = path.join(tmp.dir, 'pob-api-fork/src');
  for (const file of ['HeadlessWrapper.lua', 'Launch.lua', 'API/Server.lua', 'API/Handlers.lua']) {
    mkdirSync(path.dirname(path.join(fork, file)), { recursive: true });
    writeFileSync(path.join(fork, file), '-- stands in for the fork: POB_ARGS runs the replica\n');
  }
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, {
      POB_LUA_ENABLED: '1',
      POB_FORK_PATH: fork,
      POB_CMD: process.execPath,
      POB_ARGS: `${REPLICA} --stdio`,
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('starts it with progress, and says in doctor which server runs', async () => {
    const seen: Array<{ progress: number; message?: string }> = [];
    const started = (await s.client.callTool({ name: 'pob_lua_start', arguments: {} }, { onprogress: (p) => void seen.push(p) }))
      .structuredContent as any;
    expect(started).toMatchObject({
      mode: 'spawn',
      server: 'pob-api',
      running: true,
      forkPath: fork,
      version: { pob: { version: '2.56.0' } },
    });
    const values = seen.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values.at(-1)).toBe(100);
    expect(seen.map((p) => p.message)).toContain('unique items loaded');
    const health = (await s.registry!.health()).pob;
    expect(health.message).toMatch(
      /server: the pob-api fork's own stdio API \(.* --stdio with POB_API_STDIO=1 in .*pob-api-fork\/src\) \(POB_ARGS \(plugins.pob.args\) is set\)/,
    );
    expect(health.detail).toMatchObject({ server: 'pob-api', forkPath: fork });
  });

  it('loads a build and answers every tool the fork can serve', async () => {
    const info = await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 30 }), name: 'mine' });
    expect(info).toEqual({ name: 'mine', level: 30, treeVersion: '3_0', build_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect((await s.ok('pob_lua_get_stats', { fields: ['Life'] })).stats.Life).toBe(life(30, 3));
    const what = await s.ok('pob_lua_calc_with', { removeNodes: [401], fields: ['CombinedDPS'] });
    expect(what.delta.CombinedDPS).toBeCloseTo(-30_000 * 0.05, 6);
    expect((await s.ok('pob_lua_set_tree', { classId: 3, ascendClassId: 0, nodes: [1, 2] })).tree.nodes).toEqual([1, 2, WITCH_START]);
    expect((await s.ok('pob_lua_export_build')).xml).toMatch(/nodes="1,2,57264"/);
    expect((await s.ok('pob_lua_start')).restarts).toEqual({ planned: 0, timeouts: 0, crashes: 0 });
    // The fork answers ok to a build whose tree PoB cannot read; the empty tree gives it away.
    const unknownTree = await s.fails('pob_lua_load_build', { build_xml: fakeBuild().replace('treeVersion="3_26"', 'treeVersion="9_99"') });
    expect(unknownTree).toMatchObject({
      code: 'LOAD_FAILED',
      message: expect.stringMatching(/could not load the build's passive tree \(5 nodes saved/),
    });
  });
});

describe('the headless API proposed upstream (PathOfBuildingCommunity/PathOfBuilding PR #9505), over stdio', () => {
  const pob = path.join(tmp.dir, 'pob-pr9505/src');
  for (const file of ['HeadlessWrapper.lua', 'Launch.lua', 'API/Server.lua', 'API/Handlers.lua']) {
    mkdirSync(path.dirname(path.join(pob, file)), { recursive: true });
    writeFileSync(path.join(pob, file), '-- stands in for the PR branch: POB_ARGS runs the replica\n');
  }
  let s: PobSession;
  beforeAll(async () => {
    s = await pobSession(tmp.dir, {
      POB_LUA_ENABLED: '1',
      POB_FORK_PATH: pob,
      POB_CMD: process.execPath,
      POB_ARGS: `${REPLICA} --stdio --api pr9505`,
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('names the class, and sets the config inputs the PR adds; the fork’s own limits are not applied to it', async () => {
    const info = await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 30 }), name: 'mine' });
    expect(info).toEqual({
      name: 'mine',
      level: 30,
      className: 'Witch',
      ascendClassName: 'Occultist',
      treeVersion: '3_0',
      build_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const set = await s.ok('pob_lua_set_config', { input: { useFrenzyCharges: true, enemyIsBoss: 'Pinnacle', bandit: 'Alira' } });
    expect(set.input).toMatchObject({ useFrenzyCharges: true, enemyIsBoss: 'Pinnacle', bandit: 'Alira' });
    expect((await s.ok('pob_lua_get_config')).input).toMatchObject({ useFrenzyCharges: true, enemyIsBoss: 'Pinnacle' });
    const unknown = await s.fails('pob_lua_set_config', { input: { conditionOnConsecratedGround: true } });
    expect(unknown).toMatchObject({
      code: 'BAD_CONFIG',
      message: expect.stringMatching(/over PoB's headless API \(PR #9505\), .*enemyIsBoss; not conditionOnConsecratedGround$/),
    });
  });
});

// The pool of PoB workers under several clients of one host (in-process, each client its own MCP
// connection), with the real luajit on the fake PoB: fair turns, the queue bound, builds as
// values, and no retry loop on a machine too busy for the time budgets.
import { execa, type ResultPromise } from 'execa';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { hostInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, pobEnv } from './helpers.js';

const tmp = tempDir('mcphost-pob-pool-');
const life = (level: number, smallNodes: number) => 38 + 12 * level + 10 * smallNodes;
const hosts: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function host(env: Record<string, string>) {
  const h = await hostInProcess({
    cwd: tmp.dir,
    plugins: ['pob'],
    env: pobEnv(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, ...env }),
  });
  hosts.push(h);
  return h;
}

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: any; _meta?: any };
const call = async (c: Client, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as Result;
const ok = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return r.structuredContent;
};
const codeOf = (r: Result) => r._meta?.['mcphost/error']?.code as string | undefined;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A flood of `count` slow loads from `a` (builds stored beforehand, named by build_id, so each call
 * goes straight to the queue), then one call from `b`: how many of the flood ended while b's call was on.
 */
async function floodThenCall(a: Client, b: Client, count: number, bCall: () => Promise<Result>) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await ok(a, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 10 + i, fake: 'sleep:150' }) })).build_id);
  await wait(50);
  let ended = 0;
  const flood = ids.map((build_id) => call(a, 'pob_lua_load_build', { build_id }).finally(() => ended++));
  await wait(100);
  const before = ended;
  const mine = await bCall();
  const during = ended - before;
  const floodResults = await Promise.all(flood);
  return { during, mine, floodResults };
}

describe('pob workers shared by several clients', () => {
  it.each([1, 2])(
    "with %i worker(s), one client's backlog delays another client's call by at most the calculation in progress",
    async (workers) => {
      const h = await host({ POB_WORKERS: String(workers) });
      const [a, b] = [await h.connect(), await h.connect()];
      await ok(b, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 77 }) });
      const { during, mine, floodResults } = await floodThenCall(a, b, 12, () => call(b, 'pob_lua_get_stats', { fields: ['Life'] }));
      expect(mine.structuredContent.stats.Life).toBe(life(77, 3));
      expect(floodResults.every((r) => !r.isError)).toBe(true);
      // The calculations in progress when b called (one per worker), and nothing of the backlog.
      expect(during).toBeLessThanOrEqual(workers);
    },
  );

  it('refuses calls past the per-client bound as busy, while another client is served', async () => {
    const h = await host({ POB_WORKERS: '1', POB_MAX_QUEUED_PER_CLIENT: '3' });
    const [a, b] = [await h.connect(), await h.connect()];
    const { mine, floodResults } = await floodThenCall(a, b, 8, () =>
      call(b, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 5 }) }),
    );
    expect(mine.isError).toBeFalsy();
    const busy = floodResults.filter((r) => r.isError);
    expect(busy).toHaveLength(4);
    for (const r of busy) {
      expect(codeOf(r)).toBe('BUSY');
      expect(r.content[0].text).toBe('PoB is busy: 3 calls of this client are already waiting for a worker (at most 3); retry in a moment');
    }
    expect((await ok(a, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 99 }) })).level).toBe(99);
  });

  it('keeps builds as values: an edit makes a new build_id, and the old one still answers as it was', async () => {
    const h = await host({ POB_WORKERS: '1' });
    const [a, b] = [await h.connect(), await h.connect()];
    const xml = fakeBuild({ level: 90 });
    const [la, lb] = await Promise.all([ok(a, 'pob_lua_load_build', { build_xml: xml }), ok(b, 'pob_lua_load_build', { build_xml: xml })]);
    expect(la.build_id).toBe(lb.build_id);
    const edited = await ok(a, 'pob_lua_set_level', { level: 10, fields: ['Life'] });
    expect(edited.build_id).toMatch(/^[0-9a-f]{32}$/);
    expect(edited.build_id).not.toBe(la.build_id);
    for (let i = 0; i < 3; i++) {
      const [sa, sb] = await Promise.all([
        ok(a, 'pob_lua_get_stats', { fields: ['Life'] }),
        ok(b, 'pob_lua_get_stats', { fields: ['Life'] }),
      ]);
      expect(sa.stats.Life).toBe(life(10, 3));
      expect(sb.stats.Life).toBe(life(90, 3));
    }
    // Anyone holding an id reads that build, whoever made it.
    expect((await ok(b, 'pob_lua_get_stats', { build_id: edited.build_id, fields: ['Life'] })).stats.Life).toBe(life(10, 3));
    // load_build by id makes a stored build this client's own.
    expect((await ok(b, 'pob_lua_load_build', { build_id: edited.build_id })).level).toBe(10);
    expect((await ok(b, 'pob_lua_get_stats', { fields: ['Life'] })).stats.Life).toBe(life(10, 3));
    const unknown = await call(b, 'pob_lua_get_stats', { build_id: 'f'.repeat(32) });
    expect(codeOf(unknown)).toBe('UNKNOWN_BUILD');
    expect(unknown.content[0].text).toMatch(/^build_id f{32} is not in the build store: load the build with pob_lua_load_build/);
    const bad = await call(b, 'pob_lua_get_stats', { build_id: '../etc/passwd' });
    expect(bad.content[0].text).toMatch(/build_id.*a build_id as pob_lua_load_build answers it \(32 hex digits\)/);
  });

  it("lets one client stop the workers without losing another client's build", async () => {
    const h = await host({ POB_WORKERS: '2' });
    const [a, b] = [await h.connect(), await h.connect()];
    await ok(a, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 20 }) });
    await ok(b, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 30 }) });
    expect(await ok(a, 'pob_lua_stop')).toEqual({ stopped: true });
    expect((await ok(b, 'pob_lua_get_stats', { fields: ['Life'] })).stats.Life).toBe(life(30, 3));
    expect(codeOf(await call(a, 'pob_lua_get_stats'))).toBe('NO_BUILD');
  });
});

describe('pob workers on a machine too busy for their time budgets', () => {
  const busyLoops: ResultPromise[] = [];
  afterEach(async () => {
    for (const loop of busyLoops.splice(0)) loop.kill('SIGKILL');
  });
  const pinCores = () => {
    for (let i = 0; i < 2; i++) busyLoops.push(execa(process.execPath, ['-e', 'for(;;){}'], { reject: false }));
  };

  it(
    'gives a start and a load that ran out of time twice as long next time, so a retry succeeds (two busy loops running)',
    { timeout: 240_000 },
    async () => {
      pinCores();
      // luajit inherits this process's environment (in-process, the host's env only feeds its config).
      process.env.FAKE_POB_START_MS = '200';
      onTestFinished(() => void delete process.env.FAKE_POB_START_MS);
      const h = await host({
        POB_WORKERS: '1',
        POB_START_TIMEOUT_MS: '150',
        POB_LOAD_TIMEOUT_MS: '150',
      });
      const c = await h.connect();
      const errors: string[] = [];
      let info: any;
      // 200 ms of CPU each: past a 150 ms budget on any machine, and far past it with both cores taken.
      for (let attempt = 0; attempt < 24 && !info; attempt++) {
        const r = await call(c, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 60, fake: 'sleep:200' }) });
        if (r.isError) errors.push(r.content[0].text!);
        else info = r.structuredContent;
      }
      expect(info, errors.join('\n')).toMatchObject({ level: 60 });
      // Each failure said what the next attempt gets, and it grew.
      const next = errors.map((e) => Number(/the next (?:start|load) gets (\d+) ms/.exec(e)?.[1]));
      expect(next.every((ms) => ms > 150)).toBe(true);
      expect(errors.some((e) => /printed no ready line within 150 ms; the next start gets 300 ms/.test(e))).toBe(true);
      expect(errors.some((e) => /no answer to pob_lua_load_build within 150 ms; .* the next load gets 300 ms/.test(e))).toBe(true);
    },
  );

  it('lets a load outlive its caller: the retry finds it loaded instead of loading again', async () => {
    const h = await host({ POB_WORKERS: '1' });
    const c = await h.connect();
    await ok(c, 'pob_lua_start');
    const xml = fakeBuild({ level: 61, fake: 'sleep:800' });
    const first = await call(c, 'pob_lua_load_build', { build_xml: xml }, { 'mcphost/timeoutMs': 300 });
    expect(first.isError).toBe(true);
    expect(first.content[0].text).toMatch(/timed out|timeout/i);
    const retry = await ok(c, 'pob_lua_load_build', { build_xml: xml });
    expect(retry).toMatchObject({ level: 61, loads: 1 });
  });
});

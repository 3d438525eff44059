// Gating, start-up failures and doctor: each failure is an error that says how to fix it, and the
// XML tools keep working in the same server. In-process through the host, except where only the
// real CLI can tell (exit codes, the child's environment).
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { callInProcess } from '../../helpers/in-process.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { approve } from '../../helpers/trust.js';
import { FAKE_POB, pobEnv, pobSession } from './helpers.js';

const tmp = tempDir('mcphost-pob-start-');
const BUILD = path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml');
const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { cwd: tmp.dir, env: pobEnv(tmp.dir, env) });
/** oclif wraps error text to the terminal width behind "›" marks; read it as one line. */
const flat = (text: string) => text.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ');
const call = (tool: string, args: Record<string, unknown>, env: Record<string, string | undefined> = {}, cwd = tmp.dir) =>
  callInProcess({ cwd, env: pobEnv(cwd, env), plugin: 'pob', tool, args });

describe('pob without and with lua.enabled', () => {
  it('lists only the XML tools by default, and the Lua tools when enabled by env or .mcprc', async () => {
    const names = async (env: Record<string, string | undefined>, cwd = tmp.dir) => {
      const s = await pobSession(cwd, env);
      try {
        return (await s.client.listTools()).tools.map((t) => t.name).sort();
      } finally {
        await s.close();
      }
    };
    expect(await names({})).toEqual(['pob_analyze_build', 'pob_compare_builds', 'pob_decode', 'pob_encode']);
    expect((await names({ POB_LUA_ENABLED: '1' })).filter((t) => t.startsWith('pob_lua_'))).toHaveLength(14);
    const rc = tempDir('mcphost-pob-rc-');
    rc.write('.mcprc.json', JSON.stringify({ plugins: { pob: { lua: { enabled: true }, pobPath: FAKE_POB, timeoutMs: 4321 } } }));
    // Found by searching, the file's pobPath (code PoB runs) applies once the user approves it.
    await approve(rc.dir);
    const s = await pobSession(rc.dir, {});
    try {
      const started = await s.ok('pob_lua_start');
      expect(started).toMatchObject({ mode: 'spawn', server: 'mcphost', pobPath: FAKE_POB, running: true });
    } finally {
      await s.close();
    }
  });

  it('runs the XML tools from a shell', async () => {
    const analyzed = await cli(['call', 'pob', 'analyze_build', '--build', BUILD]);
    expect(analyzed.exitCode).toBe(0);
    expect(analyzed.stdout).toMatch(/^# Witch \(Occultist\) level 99\nMain skill: Vortex/);
    const code = await call('encode', { xml: BUILD });
    expect(code.result.content[0]).toMatchObject({ text: expect.stringMatching(/^eN/) });
    const bad = await call('decode', { code: 'definitely not base64!' });
    expect(bad.error).toMatchObject({
      kind: 'tool_error',
      code: 'BAD_SHARE_CODE',
      message: expect.stringMatching(/not a share code: it contains "!"/),
    });
  });
});

describe('pob Lua start-up failures', () => {
  it('says how to install luajit, and keeps serving the XML tools', async () => {
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_CMD: 'no-such-luajit-here' });
    try {
      const failed = await s.fails('pob_lua_load_build', { build_xml: BUILD });
      expect(failed.code).toBe('UNAVAILABLE');
      expect(failed.message).toMatch(
        /cannot run `no-such-luajit-here` \(ENOENT\): install LuaJIT and lua-zlib \(`apt-get install luajit lua-zlib`\), or set plugins.pob.cmd \(POB_CMD\)/,
      );
      expect((await s.ok('pob_analyze_build', { build: BUILD })).className).toBe('Witch');
      expect((await s.fails('pob_lua_start')).code).toBe('UNAVAILABLE');
    } finally {
      await s.close();
    }
  });

  it('names the missing PoB files, an unset pobPath, and a PoB that fails to start (exit 4)', async () => {
    const notPob = await call('lua_get_stats', {}, { POB_LUA_ENABLED: '1', POB_PATH: tmp.dir });
    expect(notPob.error?.kind).toBe('unavailable');
    expect(notPob.error?.message).toMatch(
      /is not a Path of Building checkout: it lacks src\/HeadlessWrapper.lua, src\/Launch.lua, runtime\/lua\/dkjson.lua; set plugins.pob.pobPath/,
    );
    const unset = await call('lua_get_stats', {}, { POB_LUA_ENABLED: '1' });
    expect(unset.error?.message).toMatch(/pobPath is not set: set plugins.pob.pobPath in .mcprc \(or POB_PATH\).*or POB_FORK_PATH/);
    const fork = await call('lua_get_stats', {}, { POB_LUA_ENABLED: '1', POB_FORK_PATH: tmp.dir });
    expect(fork.error?.message).toMatch(/is not the pob-api fork's src folder: it lacks HeadlessWrapper.lua, Launch.lua, API\/Server.lua/);
    // The child's environment reaches luajit only from a real process.
    const init = await cli(['call', 'pob', 'lua_start'], { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, FAKE_POB_INIT_FAIL: '1' });
    expect(init.exitCode).toBe(4);
    expect(flat(init.stderr)).toMatch(
      /Path of Building failed to start: .*fake PoB cannot find its data.*intact Path of Building Community checkout/,
    );
    const noZlib = await cli(['call', 'pob', 'lua_start'], { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, LUA_CPATH: '/nonexistent/?.so' });
    expect(noZlib.exitCode).toBe(4);
    expect(flat(noZlib.stderr)).toMatch(/lua-zlib is not installed for LuaJIT .*apt-get install lua-zlib/);
  });

  it('doctor reports luajit, lua-zlib, which server runs PoB, the PoB path and version, or what to fix', async () => {
    const health = async (env: Record<string, string | undefined>) => {
      const s = await pobSession(tmp.dir, env);
      try {
        return (await s.registry!.health()).pob;
      } finally {
        await s.close();
      }
    };
    // A luajit that counts its runs: health checks are kept a few seconds, not re-run per request.
    const runs = path.join(tmp.dir, 'luajit-runs.txt');
    const counting = tmp.write('counting-luajit', `#!/bin/sh\necho run >> '${runs}'\nexec luajit "$@"\n`);
    chmodSync(counting, 0o755);
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_CMD: counting });
    let good: Awaited<ReturnType<NonNullable<typeof s.registry>['health']>>['pob'];
    try {
      const reports = await Promise.all([1, 2, 3].map(() => s.registry!.health()));
      good = (await s.registry!.health()).pob;
      expect(reports.map((r) => r.pob)).toEqual([good, good, good]);
      expect(readFileSync(runs, 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      await s.close();
    }
    expect(good.ok).toBe(true);
    expect(good.message).toMatch(
      /XML and Lua tools ready: LuaJIT \S+, lua-zlib ok, PoB 0.0.1-fake at .*; server: mcphost's Lua server \(plugins\/pob\/live\/lua\/server.lua\) over .* \(an unmodified PoB checkout\)/,
    );
    expect(good.detail).toMatchObject({ server: 'mcphost', luaZlib: true, pobPathOk: true, pobVersion: '0.0.1-fake', missing: [] });

    const off = await health({ POB_CMD: 'no-such-luajit-here' });
    expect(off.ok).toBe(true);
    expect(off.message).toMatch(/XML tools ready; Lua tools off \(set plugins.pob.lua.enabled: true or POB_LUA_ENABLED=1/);

    const bad = await cli(['doctor', '--plugins', 'pob'], { POB_LUA_ENABLED: '1', POB_PATH: tmp.dir, POB_CMD: 'no-such-luajit-here' });
    expect(bad.exitCode).toBe(4);
    expect(flat(bad.stdout)).toMatch(
      /Lua tools cannot start: `no-such-luajit-here` cannot be run .*apt-get install luajit lua-zlib.*lacks src\/HeadlessWrapper.lua/,
    );
  });
});

// Gating, start-up failures and doctor, through the real CLI: each failure is an error that says
// how to fix it, and the XML tools keep working in the same server.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, pobEnv, pobSession } from './helpers.js';

const tmp = tempDir('mcphost-pob-start-');
const BUILD = path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml');
const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { cwd: tmp.dir, env: pobEnv(tmp.dir, env) });
/** oclif wraps error text to the terminal width behind "›" marks; read it as one line. */
const flat = (text: string) => text.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ');

describe('pob without and with lua.enabled', () => {
  it('lists only the XML tools by default, and the Lua tools when enabled by env or .mcprc', async () => {
    const off = await cli(['tools', '--plugins', 'pob', '--json']);
    expect(off.exitCode).toBe(0);
    const names = (JSON.parse(off.stdout) as Array<{ name: string }>).map((t) => t.name).sort();
    expect(names).toEqual(['pob_analyze_build', 'pob_compare_builds', 'pob_decode', 'pob_encode']);
    const on = await cli(['tools', '--plugins', 'pob', '--json'], { POB_LUA_ENABLED: '1' });
    expect((JSON.parse(on.stdout) as Array<{ name: string }>).filter((t) => t.name.startsWith('pob_lua_'))).toHaveLength(14);
    const rc = tempDir('mcphost-pob-rc-');
    rc.write('.mcprc.json', JSON.stringify({ plugins: { pob: { lua: { enabled: true }, pobPath: FAKE_POB, timeoutMs: 4321 } } }));
    const fromFile = await runCli(['config', '--json'], { cwd: rc.dir, env: pobEnv(rc.dir) });
    expect(fromFile.exitCode).toBe(0);
    expect(JSON.parse(fromFile.stdout).config.plugins.pob).toMatchObject({
      lua: { enabled: true },
      pobPath: FAKE_POB,
      timeoutMs: 4321,
      cmd: 'luajit',
    });
  });

  it('runs the XML tools from a shell', async () => {
    const analyzed = await cli(['call', 'pob', 'analyze_build', '--build', BUILD]);
    expect(analyzed.exitCode).toBe(0);
    expect(analyzed.stdout).toMatch(/^# Witch \(Occultist\) level 99\nMain skill: Vortex/);
    const code = await cli(['call', 'pob', 'encode', '--xml', BUILD]);
    expect(code.stdout).toMatch(/^eN/);
    const bad = await cli(['call', 'pob', 'decode', '--code', 'definitely not base64!']);
    expect(bad.exitCode).toBe(5);
    expect(flat(bad.stderr)).toMatch(/not a share code: it contains "!"/);
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
    const notPob = await cli(['call', 'pob', 'lua_get_stats'], { POB_LUA_ENABLED: '1', POB_PATH: tmp.dir });
    expect(notPob.exitCode).toBe(4);
    expect(flat(notPob.stderr)).toMatch(
      /is not a Path of Building checkout: it lacks src\/HeadlessWrapper.lua, src\/Launch.lua, runtime\/lua\/dkjson.lua; set plugins.pob.pobPath/,
    );
    const unset = await cli(['call', 'pob', 'lua_get_stats'], { POB_LUA_ENABLED: '1' });
    expect(unset.exitCode).toBe(4);
    expect(flat(unset.stderr)).toMatch(/pobPath is not set: set plugins.pob.pobPath in .mcprc \(or POB_PATH\)/);
    const init = await cli(['call', 'pob', 'lua_start'], { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, FAKE_POB_INIT_FAIL: '1' });
    expect(init.exitCode).toBe(4);
    expect(flat(init.stderr)).toMatch(
      /Path of Building failed to start: .*fake PoB cannot find its data.*intact Path of Building Community checkout/,
    );
    const noZlib = await cli(['call', 'pob', 'lua_start'], { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, LUA_CPATH: '/nonexistent/?.so' });
    expect(noZlib.exitCode).toBe(4);
    expect(flat(noZlib.stderr)).toMatch(/lua-zlib is not installed for LuaJIT .*apt-get install lua-zlib/);
  });

  it('doctor reports luajit, lua-zlib, the PoB path and version, or what to fix', async () => {
    const good = await cli(['doctor', '--plugins', 'pob', '--json'], { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB });
    expect(good.exitCode).toBe(0);
    const report = JSON.parse(good.stdout).plugins[0];
    expect(report.ok).toBe(true);
    expect(report.message).toMatch(/XML and Lua tools ready: LuaJIT \S+, lua-zlib ok, PoB 0.0.1-fake at /);
    expect(report.health.detail).toMatchObject({ luaZlib: true, pobPathOk: true, pobVersion: '0.0.1-fake', missing: [] });

    const bad = await cli(['doctor', '--plugins', 'pob'], { POB_LUA_ENABLED: '1', POB_PATH: tmp.dir, POB_CMD: 'no-such-luajit-here' });
    expect(bad.exitCode).toBe(4);
    expect(flat(bad.stdout)).toMatch(
      /Lua tools cannot start: `no-such-luajit-here` cannot be run .*apt-get install luajit lua-zlib.*lacks src\/HeadlessWrapper.lua/,
    );

    const off = await cli(['doctor', '--plugins', 'pob'], { POB_CMD: 'no-such-luajit-here' });
    expect(off.exitCode).toBe(0);
    expect(flat(off.stdout)).toMatch(/XML tools ready; Lua tools off \(set plugins.pob.lua.enabled: true or POB_LUA_ENABLED=1/);
  });
});

// pob_lua_stop over HTTP (the real `mcphost serve --transport http`, real luajit on the fake PoB):
// the workers are shared by every client, so a client's stop drops only its own build and never
// restarts PoB under the others; the operator's stop (stdio) is in pool.test.ts.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, pobEnv } from './helpers.js';

const tmp = tempDir('mcphost-pob-stop-');
const servers: HttpServer[] = [];
afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.stop()));
});

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: any; _meta?: any };
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as Result;
const ok = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = await call(c, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return r.structuredContent;
};

describe('pob_lua_stop from clients over HTTP', () => {
  it("drops only the caller's build: the shared workers keep running for everyone else", { timeout: 120_000 }, async () => {
    const server = await startHttp(['--plugins', 'pob'], {
      cwd: tmp.dir,
      env: pobEnv(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1' }),
    });
    servers.push(server);
    const [a, b, modern] = [await server.connect('legacy'), await server.connect('legacy'), await server.connect('modern')];
    await ok(a, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 20 }) });
    const { build_id } = await ok(b, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 30 }) });
    const before = await ok(b, 'pob_lua_start');
    expect(before.running).toBe(true);

    expect(await ok(a, 'pob_lua_stop')).toEqual({ stopped: false, released: true });
    expect(await ok(a, 'pob_lua_stop')).toEqual({ stopped: false, released: false });
    expect(await ok(modern, 'pob_lua_stop')).toEqual({ stopped: false, released: false });

    const after = await ok(b, 'pob_lua_start');
    expect(after.workers).toEqual(before.workers);
    expect(after.starts).toBe(before.starts);
    expect((await ok(b, 'pob_lua_get_stats', { fields: ['Life'] })).stats.Life).toBe(38 + 12 * 30 + 30);
    const dropped = await call(a, 'pob_lua_get_stats');
    expect(dropped._meta?.['mcphost/error']?.code).toBe('NO_BUILD');
    // The build itself stays in the store: anyone holding its id still reads it.
    expect((await ok(modern, 'pob_lua_get_stats', { build_id, fields: ['Life'] })).stats.Life).toBe(38 + 12 * 30 + 30);
  });
});

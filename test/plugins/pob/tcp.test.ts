// TCP mode with a server that speaks mcphost's own protocol (ids echoed, `{ok, result}`): the
// project's Lua server on the fake PoB, its stdio relayed to a real socket on 127.0.0.1 (one luajit
// per connection, its banner line dropped). The pob-api fork's GUI API is in pob-api.test.ts.
import { createServer, type Server, type Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEnvironment } from '../../../plugins/pob/live/pob-files.ts';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, pobSession } from './helpers.js';

const tmp = tempDir('mcphost-pob-tcp-');
let server: Server;
let port = 0;
const children: ChildProcess[] = [];
let connections = 0;

function relay(socket: Socket): void {
  connections++;
  const { cwd, env, script } = spawnEnvironment(FAKE_POB);
  const lua = spawn('luajit', [script], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(lua);
  let bannerSeen = false;
  let pending = '';
  lua.stdout!.setEncoding('utf8');
  lua.stdout!.on('data', (chunk: string) => {
    if (bannerSeen) return void socket.write(chunk);
    pending += chunk;
    const nl = pending.indexOf('\n');
    if (nl < 0) return;
    bannerSeen = true;
    if (pending.length > nl + 1) socket.write(pending.slice(nl + 1));
  });
  socket.pipe(lua.stdin!);
  socket.on('error', () => lua.kill());
  socket.on('close', () => lua.stdin!.end());
  lua.on('exit', () => socket.destroy());
}

beforeAll(async () => {
  server = createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const c of children) c.kill();
  await new Promise((resolve) => server.close(resolve));
});

describe('pob over TCP', () => {
  it('runs the Lua tools against a PoB GUI at POB_API_TCP:POB_API_TCP_PORT', async () => {
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_API_TCP: '127.0.0.1', POB_API_TCP_PORT: String(port) });
    try {
      const started = await s.ok('pob_lua_start');
      expect(started).toMatchObject({
        mode: 'tcp',
        server: 'mcphost',
        running: true,
        endpoint: `127.0.0.1:${port}`,
        version: { pob: { version: '0.0.1-fake' } },
      });
      expect((await s.ok('pob_lua_load_build', { build_xml: fakeBuild({ level: 40 }) })).level).toBe(40);
      const answers = await Promise.all([
        s.ok('pob_lua_get_stats', { fields: ['Life'] }),
        s.ok('pob_lua_get_tree'),
        s.ok('pob_lua_get_config'),
      ]);
      expect(answers[0].stats.Life).toBe(38 + 12 * 40 + 30);
      expect(answers[1].nodes).toEqual([1, 2, 3, 401, 500]);
      expect(await s.ok('pob_lua_stop')).toEqual({ stopped: false, disconnected: true });
      expect((await s.fails('pob_lua_get_stats')).code).toBe('NO_BUILD');
      expect(connections).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('says what to start when nothing listens there (POB_API_TCP=1 means 127.0.0.1)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const s = await pobSession(tmp.dir, { POB_LUA_ENABLED: '1', POB_API_TCP: '1', POB_API_TCP_PORT: String(deadPort) });
    try {
      const failed = await s.fails('pob_lua_get_stats');
      expect(failed.code).toBe('UNAVAILABLE');
      expect(failed.message).toMatch(
        new RegExp(`cannot reach PoB at 127.0.0.1:${deadPort} .*ECONNREFUSED.*start Path of Building with its API listening there`),
      );
      expect((await s.ok('pob_analyze_build', { build: fakeBuild() })).level).toBe(90);
    } finally {
      await s.close();
    }
  });
});

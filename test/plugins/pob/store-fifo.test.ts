// FIFOs in the build store (the real `mcphost serve --transport http`, real luajit on the fake PoB):
// a store file is read as every file input is, so build_ids whose files are FIFOs are answered at
// once as not in the store while another client is served, no worker is held, and SIGTERM still
// ends the host within its deadline.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, pobEnv } from './helpers.js';

const tmp = tempDir('mcphost-pob-fifo-');
const servers: HttpServer[] = [];
afterAll(async () => {
  for (const s of servers) s.child.kill('SIGKILL');
});

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: any; _meta?: any };
/** A call that must be answered within `ms`: a held worker shows as no answer at all. */
const call = (c: Client, name: string, args: Record<string, unknown>, ms = 15_000) =>
  Promise.race([
    c.callTool({ name, arguments: args }) as Promise<Result>,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${name} had no answer within ${ms} ms`)), ms)),
  ]);

const SHUTDOWN_MS = 2_000;
const SLACK_MS = 1_500;

describe('a build store holding FIFOs', () => {
  it('answers their build_ids at once, serves another client, and exits on SIGTERM within its deadline', { timeout: 90_000 }, async () => {
    const store = path.join(tmp.dir, 'store');
    mkdirSync(store);
    const traps = ['a', 'b', 'c'].map((c) => c.repeat(32));
    for (const id of traps) execFileSync('mkfifo', [path.join(store, `${id}.xml`)]);
    const server = await startHttp(['--plugins', 'pob'], {
      cwd: tmp.dir,
      env: pobEnv(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '2', POB_BUILD_STORE: store }),
    });
    servers.push(server);
    const [modern, legacy] = [await server.connect('modern'), await server.connect('legacy')];
    const answers = await Promise.all(traps.map((build_id) => call(modern, 'pob_lua_get_stats', { build_id })));
    for (const [i, r] of answers.entries()) {
      expect(r.isError).toBe(true);
      expect(r._meta?.['mcphost/error']?.code).toBe('UNKNOWN_BUILD');
      expect(r.content[0].text).toMatch(new RegExp(`^build_id ${traps[i]} is not in the build store`));
    }
    const loaded = await call(legacy, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 40 }) });
    expect(loaded.isError).toBeFalsy();
    expect((await call(legacy, 'pob_lua_get_stats', { fields: ['Life'] })).structuredContent?.stats.Life).toBe(38 + 12 * 40 + 30);
    expect(server.stderr()).toContain(`${traps[0]}.xml is a FIFO (named pipe), not a build`);

    const stopAt = Date.now();
    server.child.kill('SIGTERM');
    const result = await server.child;
    expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
    expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + SLACK_MS);
  });
});

// The PoB fair queue keyed by caller, over the real `mcphost serve --transport http` (one worker,
// real luajit on the fake PoB): 40 concurrent 2026-era requests from one sender (each a client of
// its own to the protocol) are one caller's backlog, so past its bound they are answered BUSY, and
// another caller's call, from a 2025-era session and from a 2026-era request, waits for the
// calculation in progress and at most one turn of the sender, never behind the backlog.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIdOf, normalizeXml } from '../../../plugins/pob/live/store.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, fakeBuild, pobEnv } from './helpers.js';

const tmp = tempDir('mcphost-pob-fair-');
const servers: HttpServer[] = [];
afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.stop()));
});

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: any; _meta?: any };
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as Result;
const codeOf = (r: Result) => r._meta?.['mcphost/error']?.code as string | undefined;
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const TOKENS = { sender: 'sender-token-0123456789', other: 'other-token-0123456789' };
const bearer = (who: keyof typeof TOKENS) => ({ authorization: `Bearer ${TOKENS[who]}` });
const FLOOD = 40;
const life = (level: number) => 38 + 12 * level + 30;

describe('PoB fairness between callers over HTTP', () => {
  it(
    "keeps a 2026-era flood from one sender to that sender's lane: BUSY past its bound, another caller served in turn",
    { timeout: 180_000 },
    async () => {
      // The flood's builds are in the store already (as another replica would have put them): each
      // call loads one, 400 ms of luajit work. The count below is of flood answers the client saw
      // while its own call was out, so it includes those that ended while that call was still on its
      // way in; one calculation must outlast that trip on a loaded machine (150 ms did not, at a load
      // of 12 on two cores: 3 counted where the queue had let one turn pass).
      const store = path.join(tmp.dir, 'store');
      mkdirSync(store);
      const ids = Array.from({ length: FLOOD }, (_, i) => {
        const xml = normalizeXml(fakeBuild({ level: 10 + i, fake: 'sleep:400' }));
        const id = buildIdOf(xml);
        writeFileSync(path.join(store, `${id}.xml`), xml);
        return id;
      });
      const config = tmp.write(
        'mcprc.json',
        JSON.stringify({ http: { clients: { sender: { token: sha256(TOKENS.sender) }, other: { token: sha256(TOKENS.other) } } } }),
      );
      const server = await startHttp(['--plugins', 'pob', '--config', config], {
        cwd: tmp.dir,
        env: pobEnv(tmp.dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1', POB_BUILD_STORE: store }),
      });
      servers.push(server);
      const sender = await server.connect('modern', bearer('sender'));
      const [session, request] = [await server.connect('legacy', bearer('other')), await server.connect('modern', bearer('other'))];
      const { build_id } = (await call(session, 'pob_lua_load_build', { build_xml: fakeBuild({ level: 77 }) })).structuredContent;

      // Turns are calculations the sender's calls got: its BUSY refusals take no worker, and under load
      // they may come back while another caller's call is out, so they are not counted.
      let ended = 0;
      const flood = ids.map((id) =>
        call(sender, 'pob_lua_load_build', { build_id: id }).then((r) => {
          if (codeOf(r) !== 'BUSY') ended++;
          return r;
        }),
      );
      await new Promise((r) => setTimeout(r, 400));
      const waitedBehind = async (run: () => Promise<Result>) => {
        const before = ended;
        const r = await run();
        expect(r.isError).toBeFalsy();
        expect(r.structuredContent.stats.Life).toBe(life(77));
        return ended - before;
      };
      // The calculation in progress, then at most one turn of the sender's.
      expect(await waitedBehind(() => call(session, 'pob_lua_get_stats', { fields: ['Life'] }))).toBeLessThanOrEqual(2);
      expect(await waitedBehind(() => call(request, 'pob_lua_get_stats', { build_id, fields: ['Life'] }))).toBeLessThanOrEqual(2);

      const results = await Promise.all(flood);
      const busy = results.filter((r) => codeOf(r) === 'BUSY');
      // 32 may wait (lua.maxQueuedPerClient) beside the one running: the rest are refused at once.
      expect(busy.length).toBeGreaterThanOrEqual(FLOOD - 33);
      expect(busy[0].content[0].text).toMatch(/^PoB is busy: 32 calls of this client are already waiting for a worker \(at most 32\)/);
      expect(results.filter((r) => !r.isError).length + busy.length).toBe(FLOOD);
    },
  );
});

// Several clients of one `mcphost serve --transport http` (the real binary), each loading its own
// real build and reading its own stats, many times over, interleaved: 2025-era sessions (their
// build kept per session), 2026-era requests and `mcphost call --url` (the build named by
// build_id), and two host processes sharing one build store. Real PoB where POB_PATH names a
// checkout; otherwise the real luajit on the fake PoB, which loads the same builds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { FAKE_POB, pobEnv } from './helpers.js';

// Empty counts as unset (`POB_PATH= npm test`), as it does for mcphost itself.
const REAL = process.env.POB_PATH || undefined;
if (!REAL) console.log('pob: multi-client HTTP tests run on the fake PoB: set POB_PATH to a Path of Building checkout to run them on PoB');
const SLOW = REAL ? 300_000 : 180_000;
const ROUNDS = REAL ? 12 : 20;

const tmp = tempDir('mcphost-pob-http-');
const FILES = ['occvortex-3_26.xml', 'dual-wield-cospris-coc-3_26.xml'].map((f) => path.join(SHARED_DATA, 'pob-builds', f));

/** The Life PoB computes for a build: its saved <PlayerStat> (PoB agrees exactly), or the fake's rule. */
function expectedLife(file: string): number {
  const xml = readFileSync(file, 'utf8');
  if (REAL) return Number(/<PlayerStat stat="Life" value="([^"]+)"/.exec(xml)![1]);
  const level = Number(/<Build [^>]*\blevel="(\d+)"/.exec(xml)![1]);
  const nodes = /<Spec [^>]*\bnodes="([^"]*)"/.exec(xml)![1].split(',').map(Number);
  return 38 + 12 * level + 10 * nodes.filter((id) => id >= 1 && id <= 400).length;
}
const LIVES = FILES.map(expectedLife);

const servers: HttpServer[] = [];
afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.stop()));
});

// Clients over HTTP may name only files inside the roots: the shared builds folder is one, as a
// team sharing a builds folder would set it.
const CONFIG = tmp.write('mcprc.json', JSON.stringify({ files: { roots: [path.join(SHARED_DATA, 'pob-builds')] } }));

async function serve(env: Record<string, string> = {}): Promise<HttpServer> {
  const server = await startHttp(['--plugins', 'pob'], {
    cwd: tmp.dir,
    env: pobEnv(tmp.dir, {
      MCPHOST_CONFIG: CONFIG,
      POB_LUA_ENABLED: '1',
      POB_PATH: REAL ?? FAKE_POB,
      POB_TIMEOUT_MS: '60000',
      ...env,
    }),
  });
  servers.push(server);
  return server;
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
    structuredContent?: any;
  };
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return r.structuredContent;
}

const life = async (client: Client, build_id?: string) =>
  (await tool(client, 'pob_lua_get_stats', { fields: ['Life'], ...(build_id ? { build_id } : {}) })).stats.Life;

describe('two clients of one HTTP host, each with its own build', () => {
  it(
    'keeps each 2025-era session on the build it loaded, over many interleaved calls',
    async () => {
      const server = await serve();
      const [a, b] = await Promise.all([server.connect('legacy'), server.connect('legacy')]);
      const [la, lb] = await Promise.all(FILES.map((f, i) => tool([a, b][i], 'pob_lua_load_build', { build_xml: f })));
      expect([la.className, lb.className]).toEqual(['Witch', 'Ranger']);
      for (let round = 0; round < ROUNDS; round++) {
        const reads = round % 2 ? [life(b), life(a)] : [life(a), life(b)];
        const [x, y] = await Promise.all(reads);
        expect(round % 2 ? [y, x] : [x, y]).toEqual(LIVES);
      }
      const info = await Promise.all([tool(a, 'pob_lua_get_build_info'), tool(b, 'pob_lua_get_build_info')]);
      expect(info.map((i) => i.className)).toEqual(['Witch', 'Ranger']);
    },
    SLOW,
  );

  it(
    'answers 2026-era clients by build_id, each request a client of its own',
    async () => {
      const server = await serve();
      const [a, b] = await Promise.all([server.connect('modern'), server.connect('modern')]);
      const ids: string[] = (await Promise.all(FILES.map((f, i) => tool([a, b][i], 'pob_lua_load_build', { build_xml: f })))).map(
        (l) => l.build_id,
      );
      expect(ids[0]).not.toBe(ids[1]);
      for (let round = 0; round < ROUNDS; round++) {
        // Crossed over too: a client reads the build the other loaded, by its id.
        const pairs =
          round % 3 === 2
            ? [
                [a, 1],
                [b, 0],
              ]
            : [
                [a, 0],
                [b, 1],
              ];
        const got = await Promise.all(pairs.map(([c, i]) => life(c as Client, ids[i as number])));
        expect(got).toEqual(pairs.map(([, i]) => LIVES[i as number]));
      }
      const none = (await a.callTool({ name: 'pob_lua_get_stats', arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(none.isError).toBe(true);
      expect(none.content[0].text).toMatch(/^no build is loaded: load one first with pob_lua_load_build.*build_id/);
    },
    SLOW,
  );

  it(
    'serves `mcphost call --url` chains that pass --build-id, two shells at once',
    async () => {
      const server = await serve();
      const call = async (args: string[]) => {
        const r = await runCli(['call', '--url', server.url, ...args, '--json'], { cwd: tmp.dir, env: pobEnv(tmp.dir), timeout: SLOW });
        expect(r.exitCode, r.stderr).toBe(0);
        return JSON.parse(r.stdout).structuredContent;
      };
      const ids: string[] = (await Promise.all(FILES.map((f) => call(['pob_lua_load_build', '--build-xml', f])))).map((l) => l.build_id);
      for (let round = 0; round < 3; round++) {
        const got = await Promise.all(ids.map((id) => call(['pob', 'lua_get_stats', '--build-id', id, '--fields', 'Life'])));
        expect(got.map((g) => g.stats.Life)).toEqual(LIVES);
      }
      // Without --build-id each call is a new client, with no build: the error says what to pass.
      const bare = await runCli(['call', '--url', server.url, 'pob_lua_get_stats'], { cwd: tmp.dir, env: pobEnv(tmp.dir), timeout: SLOW });
      expect(bare.exitCode).toBe(5);
      expect(bare.stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ')).toMatch(/--build-id/);
    },
    SLOW,
  );

  it(
    'answers a build_id made by another host process pointed at the same build store',
    async () => {
      const store = path.join(tmp.dir, 'shared-store');
      const one = await serve({ POB_BUILD_STORE: store });
      const two = await serve({ POB_BUILD_STORE: store });
      const [c1, c2] = await Promise.all([one.connect('modern'), two.connect('modern')]);
      const ids: string[] = [];
      for (const f of FILES) ids.push((await tool(c1, 'pob_lua_load_build', { build_xml: f })).build_id);
      expect(readFileSync(path.join(store, `${ids[0]}.xml`), 'utf8')).toBe(readFileSync(FILES[0], 'utf8').trim());
      for (let round = 0; round < 3; round++) expect(await Promise.all(ids.map((id) => life(c2, id)))).toEqual(LIVES);
      // An edit on the second host answers an id the first one reads.
      const edited = await tool(c2, 'pob_lua_set_level', { build_id: ids[0], level: 50, fields: ['Life'] });
      expect(await life(c1, edited.build_id)).toBe(edited.changes.Life.after);
      // A host with another store does not know the id, and says how to get one.
      const other = await serve({ POB_BUILD_STORE: path.join(tmp.dir, 'other-store') });
      const c3 = await other.connect('modern');
      const r = (await c3.callTool({ name: 'pob_lua_get_stats', arguments: { build_id: ids[0] } })) as { content: Array<{ text: string }> };
      expect(r.content[0].text).toMatch(/is not in the build store: load the build with pob_lua_load_build/);
    },
    SLOW,
  );
});

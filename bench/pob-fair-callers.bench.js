#!/usr/bin/env node
// pob-fair-callers (issue 36, item 3): another caller's pob_lua_get_stats wait while one sender
// floods `mcphost serve --transport http` (one PoB worker; the fake PoB, each flood call a 300 ms
// load) with BENCH_FLOOD (40) concurrent 2026-era requests, from a 2025-era session and from a
// 2026-era request, against the same calls with no flood; and how many flood calls were answered
// BUSY. The sender and the other caller are named clients (http.clients, by token); a build
// without named clients is run without them (every request is then a client of its own anyway).
// `MCPHOST_BIN=/path/to/other/bin/run.js` measures another build (the figures before a change).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCPHOST_BIN ?? path.resolve(here, '../bin/run.js');
const FLOOD = Number(process.env.BENCH_FLOOD ?? 40);
const LOAD_MS = 300;
const work = mkdtempSync(path.join(tmpdir(), 'mcphost-pob-fair-'));
const store = path.join(work, 'store');
mkdirSync(store);
const sha = (text) => createHash('sha256').update(text).digest('hex');
const TOKENS = { sender: 'sender-token-0123456789', other: 'other-token-0123456789' };
const build = (level, fake) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<PathOfBuilding>',
    `\t<Build level="${level}" className="Witch" ascendClassName="Occultist" mainSocketGroup="1" targetVersion="3_0"${fake ? ` fake="${fake}"` : ''}>`,
    '\t</Build>',
    '\t<Tree activeSpec="1"><Spec treeVersion="3_26" classId="3" ascendClassId="1" nodes="1,2,3" masteryEffects=""/></Tree>',
    '</PathOfBuilding>',
  ].join('\n');
// The flood's builds are in the store already (named by the id the store gives them).
const ids = Array.from({ length: FLOOD }, (_, i) => {
  const xml = build(10 + i, `sleep:${LOAD_MS}`);
  const id = sha(xml).slice(0, 32);
  writeFileSync(path.join(store, `${id}.xml`), xml);
  return id;
});
const config = path.join(work, 'mcprc.json');
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POB_'))),
  HOME: work,
  XDG_CACHE_HOME: path.join(work, 'cache'),
  POB_LUA_ENABLED: '1',
  POB_PATH: path.resolve(here, '../test/fixtures/pob/fake-pob'),
  POB_WORKERS: '1',
  POB_BUILD_STORE: store,
};

function start(named) {
  writeFileSync(
    config,
    JSON.stringify(
      named
        ? { http: { clients: { sender: { token: `sha256:${sha(TOKENS.sender)}` }, other: { token: `sha256:${sha(TOKENS.other)}` } } } }
        : {},
    ),
  );
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--plugins', 'pob', '--config', config, '--transport', 'http', '--port', '0', '--log-level', 'info'],
    {
      cwd: work,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], child, named });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function client(server, era, who) {
  const c = new Client({ name: 'bench', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const headers = server.named ? { authorization: `Bearer ${TOKENS[who]}` } : undefined;
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), headers ? { requestInit: { headers } } : undefined));
  return c;
}

const server = await start(true).catch(() => start(false));
try {
  const sender = await client(server, 'modern', 'sender');
  const session = await client(server, 'legacy', 'other');
  const request = await client(server, 'modern', 'other');
  const loaded = await session.callTool({ name: 'pob_lua_load_build', arguments: { build_xml: build(77) } });
  const { build_id } = loaded.structuredContent;
  const stats = {
    '2025-era session': () => session.callTool({ name: 'pob_lua_get_stats', arguments: { fields: ['Life'] } }),
    '2026-era request': () => request.callTool({ name: 'pob_lua_get_stats', arguments: { build_id, fields: ['Life'] } }),
  };
  const timed = async (fn) => {
    const t = performance.now();
    const r = await fn();
    if (r.isError) throw new Error(r.content[0].text);
    return Math.round(performance.now() - t);
  };
  const idle = {};
  for (const [era, fn] of Object.entries(stats)) idle[era] = await timed(fn);
  const t0 = performance.now();
  const flood = ids.map((id) => sender.callTool({ name: 'pob_lua_load_build', arguments: { build_id: id } }));
  await new Promise((r) => setTimeout(r, 500));
  const during = await Promise.all(Object.values(stats).map(timed));
  const results = await Promise.all(flood);
  const busy = results.filter((r) => r._meta?.['mcphost/error']?.code === 'BUSY').length;
  console.log(
    `${FLOOD} concurrent 2026-era loads (${LOAD_MS} ms each, 1 worker) from one sender${server.named ? ' (named clients)' : ''}: ${busy} answered BUSY, flood done in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (const [i, era] of Object.keys(stats).entries())
    console.log(`  another caller's get_stats, ${era}: ${idle[era]} ms idle, ${during[i]} ms during the flood`);
  await Promise.allSettled([sender.close(), session.close(), request.close()]);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}

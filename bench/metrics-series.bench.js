#!/usr/bin/env node
// metrics-series (issue 36, item 10): the size of GET /metrics after a mounted server (the test
// fixture, official SDK) renamed one tool BENCH_RENAMES times (200), each name called once: series
// and bytes, against the same host before any rename. `MCPHOST_DIST=/other/checkout/dist` measures
// another build (the figures before a change).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const DIST = process.env.MCPHOST_DIST ?? path.resolve(here, '../dist');
const RENAMES = Number(process.env.BENCH_RENAMES ?? 200);
const load = (p) => import(pathToFileURL(path.join(DIST, p)).href);
const { Registry } = await load('src/registry/registry.js');
const { serveOnHttp } = await load('src/server/http.js');
const { createUpstreamBackend } = await load('src/upstream/backend.js');
const { silentLogger } = await load('src/kit/silent-logger.js');

const fixture = path.resolve(here, '../test/upstream/fixtures/server.mjs');
const upstream = createUpstreamBackend('fx', { command: process.execPath, args: [fixture], env: { FIXTURE_TOOLS_ONLY: '1' } }, process.env);
const loaded = {
  name: 'fx',
  backend: upstream,
  config: {},
  sources: new Map(),
  section: {},
  origin: { kind: 'module', location: 'bench' },
};
const registry = await Registry.create([loaded], {
  logger: silentLogger,
  timeouts: { toolMs: 10_000, startMs: 10_000, shutdownMs: 1_000 },
});
const serving = await serveOnHttp(
  registry,
  { name: 'mcphost', version: 'bench' },
  { host: '127.0.0.1', port: 0, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 1 << 20, sessionIdleMs: 60_000, maxSessions: 10 },
  silentLogger,
);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
const scrape = async () => {
  const text = await (await fetch(serving.url.replace('/mcp', '/metrics'))).text();
  return { series: text.split('\n').filter((l) => l.startsWith('mcphost_tool_')).length, bytes: text.length };
};
const listed = async (name, want) => {
  for (let i = 0; i < 200; i++) {
    if ((await client.listTools()).tools.some((t) => t.name === name) === want) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${name} never ${want ? 'appeared' : 'left'}`);
};
try {
  await client.callTool({ name: 'fx_echo', arguments: { message: 'hi' } });
  const before = await scrape();
  for (let i = 0; i < RENAMES; i++) {
    const name = `gen${i}`;
    await client.callTool({ name: 'fx_add-tool', arguments: { name } });
    await listed(`fx_${name}`, true);
    await client.callTool({ name: `fx_${name}`, arguments: {} });
    await client.callTool({ name: 'fx_remove-tool', arguments: { name } });
    await listed(`fx_${name}`, false);
  }
  const after = await scrape();
  const tools = (await client.listTools()).tools.length;
  console.log(
    `/metrics tool series: ${before.series} (${before.bytes} bytes) before; after ${RENAMES} renames, ${tools} tools listed: ${after.series} series (${after.bytes} bytes)`,
  );
} finally {
  await client.close();
  await serving.close();
  await registry.close();
}

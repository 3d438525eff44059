// GET /metrics on a real 127.0.0.1 socket, scraped and parsed as Prometheus text while an SDK
// client calls tools: counters move with calls, errors are counted by kind, a backend's own gauge
// is exported, the token guards the page; and a tools/call's traceparent reaches a mounted server.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import type { HttpServing } from '../../src/server/http.js';
import { createUpstreamBackend } from '../../src/upstream/backend.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { FIXTURE_SERVER, textOf } from '../upstream/helpers.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text exposition format (version 0.0.4): `# HELP`/`# TYPE` lines, then `name{l="v",…} value`. */
function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

const TOKEN = 'metrics-test-token';
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('GET /metrics', () => {
  const queue = { length: 3 };
  let registry: Registry;
  let serving: HttpServing;
  let client: Client;

  beforeAll(async () => {
    const probe = defineBackend({
      name: 'probe',
      version: '1.0.0',
      description: 'a backend with a queue',
      tools: (ctx) => {
        ctx.gauge?.('queue_length', 'calls waiting', () => queue.length);
        return [
          { name: 'hello', description: 'says hello', input: z.object({}), handler: () => 'hello' },
          {
            name: 'fail',
            description: 'fails',
            input: z.object({}),
            handler: () => {
              throw new Error('no');
            },
          },
        ];
      },
    });
    const upstream = createUpstreamBackend(
      'fx',
      { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_TOOLS_ONLY: '1' } },
      process.env,
    );
    registry = await Registry.create([inlineBackend('probe', probe), inlineBackend('fx', upstream)], {
      logger: silentLogger,
      timeouts: { toolMs: 10_000, startMs: 10_000, shutdownMs: 1_000 },
    });
    serving = await serveOnLoopback(registry, { token: TOKEN, maxSessions: 10 });
    client = new Client({ name: 'metrics-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await serving?.close();
    await registry?.close();
  });

  const scrape = async () => {
    const res = await fetch(serving.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  it('is behind the token', async () => {
    const res = await fetch(serving.url.replace('/mcp', '/metrics'));
    expect(res.status).toBe(401);
  });

  it('counts calls, errors and latency per tool and backend, and moves with each call', async () => {
    await client.callTool({ name: 'probe_hello', arguments: {} });
    await client.callTool({ name: 'probe_hello', arguments: {} });
    expect((await client.callTool({ name: 'probe_fail', arguments: {} })).isError).toBe(true);
    const before = await scrape();
    expect(before.types.get('mcphost_tool_calls_total')).toBe('counter');
    expect(before.types.get('mcphost_tool_call_duration_seconds')).toBe('histogram');
    const hello = { tool: 'probe_hello', backend: 'probe' };
    expect(value(before.samples, 'mcphost_tool_calls_total', hello)).toBe(2);
    expect(value(before.samples, 'mcphost_tool_call_duration_seconds_count', hello)).toBe(2);
    expect(value(before.samples, 'mcphost_tool_call_duration_seconds_bucket', { ...hello, le: '+Inf' })).toBe(2);
    expect(value(before.samples, 'mcphost_tool_errors_total', { tool: 'probe_fail', kind: 'tool_error' })).toBe(1);
    expect(value(before.samples, 'mcphost_tool_errors_total', hello)).toBeUndefined();
    await client.callTool({ name: 'probe_hello', arguments: {} });
    const after = await scrape();
    expect(value(after.samples, 'mcphost_tool_calls_total', hello)).toBe(3);
  });

  it('exports backends up, sessions and the gauge a backend publishes', async () => {
    await client.listTools();
    queue.length = 7;
    const { samples, types } = await scrape();
    expect(value(samples, 'mcphost_backend_up', { backend: 'probe' })).toBe(1);
    expect(value(samples, 'mcphost_sessions')).toBe(1);
    expect(types.get('mcphost_probe_queue_length')).toBe('gauge');
    expect(value(samples, 'mcphost_probe_queue_length')).toBe(7);
    expect(value(samples, 'mcphost_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('drops the series of a tool that leaves the catalog, and only its', async () => {
    const count = (samples: Sample[], tool: string) => samples.filter((x) => x.labels.tool === tool).length;
    const renames = ['fx_gen1', 'fx_gen2', 'fx_gen3'];
    for (const [i, name] of renames.entries()) {
      const local = name.slice(3);
      await client.callTool({ name: 'fx_add-tool', arguments: { name: local } });
      await expect.poll(async () => (await client.listTools()).tools.some((t) => t.name === name)).toBe(true);
      await client.callTool({ name, arguments: {} });
      expect(count((await scrape()).samples, name)).toBeGreaterThan(0);
      // The server renames the tool: the old name leaves the catalog.
      if (i < renames.length - 1) await client.callTool({ name: 'fx_remove-tool', arguments: { name: local } });
      await expect.poll(async () => (await client.listTools()).tools.some((t) => t.name === name)).toBe(i === renames.length - 1);
    }
    const { samples } = await scrape();
    expect(count(samples, 'fx_gen1')).toBe(0);
    expect(count(samples, 'fx_gen2')).toBe(0);
    expect(value(samples, 'mcphost_tool_calls_total', { tool: 'fx_gen3', backend: 'fx' })).toBe(1);
    // Tools still listed keep theirs, errors included.
    expect(value(samples, 'mcphost_tool_errors_total', { tool: 'probe_fail', kind: 'tool_error' })).toBe(1);
    expect(value(samples, 'mcphost_tool_calls_total', { tool: 'fx_add-tool', backend: 'fx' })).toBe(3);
  });

  it('drops the series of a backend that was removed', async () => {
    await client.callTool({ name: 'probe_hello', arguments: {} });
    expect(value((await scrape()).samples, 'mcphost_tool_calls_total', { tool: 'probe_hello', backend: 'probe' })).toBeGreaterThan(0);
    await registry.reconfigure({ remove: ['probe'], add: [] });
    const { samples } = await scrape();
    expect(samples.filter((x) => x.labels.backend === 'probe' && x.name.startsWith('mcphost_tool_'))).toEqual([]);
    expect(value(samples, 'mcphost_tool_calls_total', { tool: 'fx_gen3', backend: 'fx' })).toBe(1);
  });

  it("passes a request's traceparent on to the mounted server, and only a well-formed one", async () => {
    const traced = await client.callTool({ name: 'fx_meta', arguments: {}, _meta: { traceparent: TRACEPARENT, tracestate: 'vendor=1' } });
    expect(JSON.parse(textOf(traced))).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'vendor=1' });
    const bogus = await client.callTool({ name: 'fx_meta', arguments: {}, _meta: { traceparent: 'not-a-trace' } });
    expect(JSON.parse(textOf(bogus))).not.toHaveProperty('traceparent');
    const { samples } = await scrape();
    expect(value(samples, 'mcphost_tool_calls_total', { tool: 'fx_meta', backend: 'fx' })).toBe(2);
  });
});

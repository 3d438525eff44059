// The HTTP server in-process on a real 127.0.0.1 socket: sessions that expire and are capped, and
// /health behind the token, its checks shared and reused, without absolute paths for callers who do
// not hold the token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing, type HttpSettings } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const timeouts = { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 };

/**
 * A backend whose health check counts its runs, names an absolute path (as godot's names its
 * docDir), and takes `costMs` on the test's clock (as pob's two luajit runs took real time).
 */
function probe(clock: { now: number }) {
  const state = { checks: 0, costMs: 0 };
  const backend = defineBackend({
    name: 'probe',
    version: '1.0.0',
    description: 'counts health checks',
    tools: [{ name: 'hello', description: 'says hello', input: z.object({}), handler: () => 'hello' }],
    health: () => {
      state.checks++;
      clock.now += state.costMs;
      return {
        ok: true,
        message: 'index at /home/someone/games/.cache/godot-index.json is fresh',
        detail: { docDir: '/home/someone/godot/doc' },
      };
    },
  });
  return { backend, state };
}

const open: Array<{ serving: HttpServing; registry: Registry }> = [];
afterEach(async () => {
  for (const { serving, registry } of open.splice(0)) {
    await serving.close();
    await registry.close();
  }
});

async function serve(settings: Partial<HttpSettings> = {}) {
  const clock = { now: 1_000_000 };
  const { backend, state } = probe(clock);
  const registry = await Registry.create([inlineBackend('probe', backend)], {
    logger: silentLogger,
    timeouts,
  });
  const serving = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '9.9.9' },
    {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [],
      allowedHosts: [],
      maxBodyBytes: 4 * 1024 * 1024,
      sessionIdleMs: 60_000,
      maxSessions: 1000,
      ...settings,
    },
    silentLogger,
    { now: () => clock.now },
  );
  open.push({ serving, registry });
  return { serving, state, clock };
}

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** What an abandoning client sends: initialize, and nothing after (no GET stream, no DELETE). */
async function initialize(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
    }),
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

async function ping(url: string, session: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...json, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.text();
  return res.status;
}

describe('HTTP sessions', () => {
  it('keeps at most maxSessions when clients initialize and never come back, closing the longest idle first', async () => {
    const { serving } = await serve({ maxSessions: 20 });
    const ids: string[] = [];
    let most = 0;
    for (let i = 0; i < 60; i++) {
      ids.push(await initialize(serving.url));
      most = Math.max(most, serving.sessionCount());
    }
    expect(most).toBe(20);
    expect(await ping(serving.url, ids[0])).toBe(404);
    expect(await ping(serving.url, ids[39])).toBe(404);
    expect(await ping(serving.url, ids[40])).toBe(200);
    // Used just now, ids[40] is no longer the longest idle: the next newcomer closes ids[41].
    await initialize(serving.url);
    expect(await ping(serving.url, ids[40])).toBe(200);
    expect(await ping(serving.url, ids[41])).toBe(404);
  });

  it('closes a session idle for sessionIdleMs, and keeps one that is used or has its stream open', async () => {
    const { serving, clock } = await serve({ sessionIdleMs: 30 * 60_000 });
    const idle = await initialize(serving.url);
    const used = await initialize(serving.url);
    const client = new Client({ name: 'listener', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    // The SDK client keeps a GET stream open for notifications once initialized.
    await expect.poll(() => serving.sessionCount()).toBe(3);
    clock.now += 20 * 60_000;
    expect(await ping(serving.url, used)).toBe(200);
    clock.now += 20 * 60_000;
    expect(await ping(serving.url, idle)).toBe(404);
    expect(await ping(serving.url, used)).toBe(200);
    expect((await client.callTool({ name: 'probe_hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(serving.sessionCount()).toBe(2);
    await client.close();
  });
});

describe('hostile messages', () => {
  it('refuses a call with 300,000 argument keys where the body is read, before the SDK validates it, and keeps serving', async () => {
    // Built first: client and server share this process, and a long pause here would let the
    // server close the kept-alive socket the client is about to reuse.
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 300_000; i++) args[`k${i}`] = 1;
    const { serving } = await serve();
    const client = new Client({ name: 'hostile', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    await expect(client.callTool({ name: 'probe_hello', arguments: args })).rejects.toThrow(
      'Invalid Request: the message holds more than 101,000 values (keys and elements); send fewer',
    );
    expect((await client.callTool({ name: 'probe_hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello' }]);
    await client.close();
  });
});

describe('request bodies', () => {
  it('answers a 5 MiB body with 413 once it has been sent, rather than cutting the upload off', async () => {
    const { serving } = await serve();
    const id = await initialize(serving.url);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } });
    const res = await fetch(serving.url, { method: 'POST', headers: { ...json, 'mcp-session-id': id }, body: big });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('request body exceeds 4194304 bytes');
    expect(await ping(serving.url, id)).toBe(200);
  });
});

describe('bearer token', () => {
  it('requires the token on /mcp when one is set', async () => {
    const { serving } = await serve({ token: 'open-sesame' });
    const post = (headers: Record<string, string>) =>
      fetch(serving.url, { method: 'POST', headers: { ...json, ...headers }, body: '{}' }).then((r) => r.status);
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer wrong' })).toBe(401);
    const client = new Client({ name: 'holder', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: 'Bearer open-sesame' } } }),
    );
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(['probe_hello']);
    await client.close();
  });
});

describe('/health', () => {
  // Kept-alive connections, a few at a time: 500 requests without 500 sockets.
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const health = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: Record<string, any> }>((resolve, reject) => {
      const req = request(url.replace('/mcp', '/health'), { agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers a caller without the token with liveness only, and the token holder with everything', async () => {
    const { serving } = await serve({ token: 'open-sesame' });
    expect(await health(serving.url)).toEqual({ status: 200, body: { live: true } });
    expect(await health(serving.url, { authorization: 'Bearer wrong' })).toEqual({ status: 200, body: { live: true } });
    const full = await health(serving.url, { authorization: 'Bearer open-sesame' });
    expect(full.body).toMatchObject({
      ok: true,
      name: 'mcphost',
      version: '9.9.9',
      backends: { probe: { ok: true, detail: { docDir: '/home/someone/godot/doc' } } },
    });
  });

  it('discloses no absolute path when no token is set', async () => {
    const { serving } = await serve();
    const { body } = await health(serving.url);
    expect(body.backends.probe).toEqual({
      ok: true,
      state: 'idle',
      message: 'index at …/godot-index.json is fresh',
      detail: { docDir: '…/doc' },
    });
    expect(JSON.stringify(body)).not.toContain('/home/');
  });

  it('runs a costly check once for 500 requests, reusing it for 50 times its cost up to 2 s', async () => {
    const { serving, state, clock } = await serve();
    state.costMs = 30; // two process starts
    const answers = await Promise.all(Array.from({ length: 500 }, () => health(serving.url)));
    expect(answers.every((a) => a.status === 200 && a.body.ok === true)).toBe(true);
    expect(state.checks).toBe(1);
    for (let i = 0; i < 20; i++) await health(serving.url);
    expect(state.checks).toBe(1);
    clock.now += 1_499;
    await health(serving.url);
    expect(state.checks).toBe(1);
    clock.now += 1;
    await health(serving.url);
    expect(state.checks).toBe(2);
    state.costMs = 1_000;
    clock.now += 2_000;
    await health(serving.url);
    clock.now += 1_999;
    await health(serving.url);
    expect(state.checks).toBe(3);
  });

  it('runs a check that costs nothing on every request, so /health shows a change at once', async () => {
    const { serving, state } = await serve();
    for (let i = 0; i < 5; i++) await health(serving.url);
    expect(state.checks).toBe(5);
  });
});

// The HTTP server in-process on a real 127.0.0.1 socket: sessions that expire and are capped, and
// /health behind the token, its checks shared and reused, without absolute paths for callers who do
// not hold the token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
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
  const state = { checks: 0, costMs: 0, holding: 0, release: [] as Array<() => void> };
  const backend = defineBackend({
    name: 'probe',
    version: '1.0.0',
    description: 'counts health checks',
    tools: [
      { name: 'hello', description: 'says hello', input: z.object({}), handler: () => 'hello' },
      {
        name: 'hold',
        description: 'answers once the test releases it (its request stays open until then)',
        input: z.object({}),
        handler: async () => {
          state.holding++;
          await new Promise<void>((resolve) => state.release.push(resolve));
          state.holding--;
          return 'released';
        },
      },
    ],
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

async function ping(url: string, session: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...json, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.text();
  return res.status;
}

/** An initialize whose answer is read whole: status, Retry-After and the JSON-RPC error, if refused. */
async function tryInitialize(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
    }),
  });
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    session: res.headers.get('mcp-session-id'),
    error: res.status === 200 ? undefined : (JSON.parse(text) as { error: { message: string }; id: unknown }),
  };
}

/** SDK clients (2025 era), each with a tools/call open on its session until the test releases it. */
async function busyClients(url: string, count: number, state: { holding: number }, headers?: Record<string, string>) {
  const clients: Client[] = [];
  const calls: Array<Promise<unknown>> = [];
  for (let i = 0; i < count; i++) {
    const client = new Client({ name: `busy-${i}`, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined));
    calls.push(client.callTool({ name: 'probe_hold', arguments: {} }));
    clients.push(client);
  }
  await expect.poll(() => state.holding).toBe(count);
  return { clients, calls };
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

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

  it('refuses a newcomer with 503 and Retry-After once every session is busy, and never closes a busy one', async () => {
    const { serving, state } = await serve({ maxSessions: 4 });
    const { clients, calls } = await busyClients(serving.url, 4, state);
    for (let i = 0; i < 3; i++) {
      const refused = await tryInitialize(serving.url);
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBe('5');
      expect(refused.error?.error.message).toBe('Server busy: 4 sessions are open, all busy (http.maxSessions); retry in 5 s');
      expect(refused.error?.id).toBe(7);
    }
    expect(serving.sessionCount()).toBe(4);
    state.release.splice(0).forEach((release) => release());
    for (const call of calls) expect(((await call) as { content: unknown }).content).toEqual([{ type: 'text', text: 'released' }]);
    // Their calls ended (their GET streams may still be open): one that leaves makes room at once.
    await clients[0].close();
    await expect.poll(async () => (await tryInitialize(serving.url)).status).toBe(200);
    for (const client of clients.slice(1)) {
      expect((await client.callTool({ name: 'probe_hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello' }]);
      await client.close();
    }
  });

  it("caps one caller's sessions: its flood closes only its own idle sessions, and past its busy ones it gets 429", async () => {
    const tokens = { a: 'token-of-a-0123456789', b: 'token-of-b-0123456789' };
    const { serving, state } = await serve({
      maxSessions: 5,
      maxSessionsPerClient: 3,
      token: 'shared-token-0123456789',
      clients: namedClientsSchema.parse({ a: { token: sha256(tokens.a) }, b: { token: sha256(tokens.b) } }),
    });
    const as = (who: 'a' | 'b') => ({ authorization: `Bearer ${tokens[who]}` });
    const theirs = (await tryInitialize(serving.url, as('b'))).session!;
    for (let i = 0; i < 20; i++) expect((await tryInitialize(serving.url, as('a'))).status).toBe(200);
    expect(serving.sessionCount()).toBe(4);
    // b's idle session outlived a's flood: only a's own were closed.
    expect(await ping(serving.url, theirs, as('b'))).toBe(200);
    const { clients, calls } = await busyClients(serving.url, 3, state, as('a'));
    const refused = await tryInitialize(serving.url, as('a'));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('5');
    expect(refused.error?.error.message).toBe(
      'Too many sessions: this client has 3 sessions open, all busy (http.maxSessionsPerClient); close one (DELETE) or retry in 5 s',
    );
    // Another caller is still let in.
    expect((await tryInitialize(serving.url, as('b'))).status).toBe(200);
    state.release.splice(0).forEach((release) => release());
    await Promise.all(calls);
    await Promise.all(clients.map((c) => c.close()));
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
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(['probe_hello', 'probe_hold']);
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

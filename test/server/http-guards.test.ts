// Issue 21, item 5, on a real 127.0.0.1 socket: browser origins allowed by exact origin (the
// server's own by default, not any localhost port), the Host check kept when a token guards a
// non-loopback bind, the token compared exactly, and -32600 for JSON that is no JSON-RPC message.
import { request } from 'node:http';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { ConfigError } from '../../src/config/errors.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing, type HttpSettings } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const open: Array<{ serving: HttpServing; registry: Registry }> = [];
afterEach(async () => {
  for (const { serving, registry } of open.splice(0)) {
    await serving.close();
    await registry.close();
  }
});

async function serve(settings: Partial<HttpSettings> = {}) {
  const backend = defineBackend({
    name: 'probe',
    version: '1.0.0',
    description: 'one tool',
    tools: [{ name: 'hello', description: 'says hello', input: z.object({}), handler: () => 'hello' }],
  });
  const registry = await Registry.create([inlineBackend('probe', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const serving = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '9.9.9' },
    {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [],
      allowedHosts: [],
      maxBodyBytes: 1024 * 1024,
      sessionIdleMs: 60_000,
      maxSessions: 100,
      ...settings,
    },
    silentLogger,
  );
  open.push({ serving, registry });
  return serving;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
};

/** A POST to 127.0.0.1:<port>/mcp with exactly these headers (Host included), as a browser or curl would send it. */
function post(port: number, headers: Record<string, string>, body: string = JSON.stringify(initialize)) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // An SSE answer: the status is what matters here.
          }
          resolve({ status: res.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (serving: HttpServing) => Number(new URL(serving.url).port);

describe('Origin', () => {
  it("allows the server's own origins and no other local port (a page of a dev server on 5173 is foreign)", async () => {
    const serving = await serve();
    const port = portOf(serving);
    const status = async (origin?: string) => (await post(port, { host: `127.0.0.1:${port}`, ...(origin && { origin }) })).status;
    expect(await status()).toBe(200);
    for (const own of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) expect(await status(own)).toBe(200);
    for (const foreign of [
      `http://localhost:${port + 1}`,
      'http://localhost:5173',
      'http://127.0.0.1',
      `https://localhost:${port}`,
      'null',
    ]) {
      expect([foreign, await status(foreign)]).toEqual([foreign, 403]);
    }
    const refused = await post(port, { host: `127.0.0.1:${port}`, origin: 'http://localhost:5173' });
    expect(refused.body.error.message).toBe(
      `Invalid Origin: http://localhost:5173 (allow a browser origin with http.allowedOrigins, e.g. http://localhost:${port})`,
    );
  });

  it('allows the origins of http.allowedOrigins exactly: scheme, host and port', async () => {
    const serving = await serve({ allowedOrigins: ['https://app.example', 'http://localhost:5173'] });
    const port = portOf(serving);
    const status = async (origin: string) => (await post(port, { host: `127.0.0.1:${port}`, origin })).status;
    expect(await status('https://app.example')).toBe(200);
    expect(await status('https://app.example:443')).toBe(200);
    expect(await status('http://localhost:5173')).toBe(200);
    expect(await status('http://app.example')).toBe(403);
    expect(await status('https://app.example:8443')).toBe(403);
    expect(await status('http://localhost:5174')).toBe(403);
  });

  it('refuses an allowedOrigins entry that is no origin, naming the key (exit 3)', () => {
    const bad = () =>
      resolveConfig({ found: { file: '/p/.mcprc', raw: { http: { allowedOrigins: ['app.example'] } } }, env: {}, cwd: '/p' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow('http.allowedOrigins[0]: expected an origin as a browser sends it: scheme://host[:port]');
  });
});

describe('Host, when a token guards a non-loopback bind', () => {
  it('still refuses a Host that names no address of this machine (DNS rebinding), token or not', async () => {
    const serving = await serve({ host: '0.0.0.0', token: 'open-sesame', allowedHosts: ['mcp.example'] });
    const port = portOf(serving);
    const auth = { authorization: 'Bearer open-sesame' };
    const evil = await post(port, { host: `evil.example:${port}`, ...auth });
    expect(evil.status).toBe(403);
    expect(evil.body.error.message).toBe('Invalid Host: evil.example');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `${os.hostname()}:${port}`, `mcp.example:${port}`]) {
      expect([host, (await post(port, { host, ...auth })).status]).toEqual([host, 200]);
    }
  });
});

describe('the bearer token', () => {
  it('is compared exactly (the scheme name in any case, as HTTP allows)', async () => {
    const serving = await serve({ token: 'open-sesame' });
    const port = portOf(serving);
    const status = async (authorization?: string) =>
      (await post(port, { host: `127.0.0.1:${port}`, ...(authorization !== undefined && { authorization }) })).status;
    expect(await status('Bearer open-sesame')).toBe(200);
    expect(await status('bearer open-sesame')).toBe(200);
    for (const wrong of [
      undefined,
      '',
      'Bearer',
      'Bearer open-sesam',
      'Bearer open-sesame!',
      'Bearer OPEN-SESAME',
      'Basic open-sesame',
      'open-sesame',
    ]) {
      expect([wrong, await status(wrong)]).toEqual([wrong, 401]);
    }
  });

  it('refuses a configured token with leading or trailing whitespace, which no HTTP header can carry (exit 3)', () => {
    const resolve = (token: string) => () => resolveConfig({ found: { raw: {} }, env: { MCPHOST_TOKEN: token }, cwd: '/w' });
    expect(resolve('open-sesame ')).toThrow(ConfigError);
    expect(resolve('open-sesame ')).toThrow('http.token: has leading or trailing whitespace');
    expect(resolve('open-sesame')).not.toThrow();
  });
});

describe('JSON that is no JSON-RPC message', () => {
  it('gets -32600 Invalid Request (with its id when it has one); text that is not JSON keeps -32700', async () => {
    const serving = await serve();
    const port = portOf(serving);
    const send = (body: string) => post(port, { host: `127.0.0.1:${port}` }, body);
    const cases: Array<[string, number | string | null]> = [
      ['42', null],
      ['"ping"', null],
      ['null', null],
      ['{"jsonrpc":"1.0","id":7,"method":"ping"}', 7],
      ['{"id":"x","method":"ping"}', 'x'],
      ['{"jsonrpc":"2.0","id":3}', 3],
      ['{"jsonrpc":"2.0","id":4,"method":5}', 4],
      ['[{"jsonrpc":"2.0","id":1,"method":"ping"},5]', null],
    ];
    for (const [body, id] of cases) {
      const r = await send(body);
      expect([body, r.status, r.body]).toEqual([
        body,
        400,
        { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' }, id },
      ]);
    }
    expect((await send('{"jsonrpc":')).body.error.code).toBe(-32700);
  });
});

// Named clients over a real 127.0.0.1 socket, spoken to by the SDK client: each is known by its
// bearer token (kept as a hash, or as the value a reference brought), `--token` stays one more
// client, anything else is refused, and a 2025-era session belongs to the client that opened it.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../../src/backend/index.js';
import { namedClientsSchema } from '../../../src/config/named-clients.js';
import { silentLogger } from '../../../src/kit/silent-logger.js';
import { Registry } from '../../../src/registry/registry.js';
import { clientTokens, tokenHash } from '../../../src/server/auth/client-tokens.js';
import { serveOnHttp, type HttpServing } from '../../../src/server/http.js';
import { inlineBackend } from '../../helpers/inline-backend.js';

const backend = defineBackend({
  name: 'probe',
  version: '1.0.0',
  description: 'answers who asked',
  tools: [{ name: 'hello', description: 'says hello', input: z.object({}), handler: () => 'hello' }],
});

const open: Array<{ serving: HttpServing; registry: Registry }> = [];
afterEach(async () => {
  for (const { serving, registry } of open.splice(0)) {
    await serving.close();
    await registry.close();
  }
});

async function serve(extra: { token?: string } = {}) {
  const registry = await Registry.create([inlineBackend('probe', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const clients = namedClientsSchema.parse({
    ci: { token: tokenHash('ci-secret') },
    // What a `${env:…}` reference leaves after the config is read: the value itself.
    dev: { token: 'dev-secret-from-env' },
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
      clients,
      ...extra,
    },
    silentLogger,
  );
  open.push({ serving, registry });
  return serving;
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'named-client-test', version: '1.0.0' });
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const post = (url: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(body),
  });

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('named clients over HTTP', () => {
  it('lets in each client by its token, a hash or a reference, and --token beside them', async () => {
    const serving = await serve({ token: 'shared-token' });
    for (const token of ['ci-secret', 'dev-secret-from-env', 'shared-token']) {
      const client = await connect(serving.url, token);
      expect((await client.callTool({ name: 'probe_hello', arguments: {} })).content).toEqual([{ type: 'text', text: 'hello' }]);
      await client.close();
    }
  });

  it('refuses no token and a wrong one with 401, and a hash sent as the token', async () => {
    const serving = await serve();
    for (const token of [undefined, 'ci-secre', tokenHash('ci-secret')]) {
      const res = await post(serving.url, token, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it("answers another client's session as one that does not exist", async () => {
    const serving = await serve();
    const opened = await post(serving.url, 'ci-secret', initialize);
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const asDev = await post(serving.url, 'dev-secret-from-env', list, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const never = await post(serving.url, 'dev-secret-from-env', list, {
      'mcp-session-id': '00000000-0000-4000-8000-000000000000',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(asDev.status).toBe(404);
    expect(never.status).toBe(404);
    const [a, b] = [(await asDev.json()) as { error: { message: string } }, (await never.json()) as { error: { message: string } }];
    expect(a.error.message.replace(session, 'ID')).toBe(b.error.message.replace('00000000-0000-4000-8000-000000000000', 'ID'));
  });
});

describe('clientTokens', () => {
  const clients = namedClientsSchema.parse({
    ci: { token: tokenHash('ci-secret'), scopes: ['mcp:ci'] },
    alice: { subjects: ['alice'], scopes: ['mcp:team'] },
  });
  const tokens = clientTokens(clients);
  const oauth = (subject: string, scopes: string[]) =>
    ({ kind: 'oauth', subject, scopes, clientId: '', issuer: 'https://id.example', expiresAt: 0 }) as const;

  it('maps a signed-in subject onto its client, else a scope it holds, else none', () => {
    expect(tokens.byOAuth(oauth('alice', ['mcp:ci']))).toBe('alice');
    expect(tokens.byOAuth(oauth('bob', ['mcp:ci']))).toBe('ci');
    expect(tokens.byOAuth(oauth('bob', ['mcp:other']))).toBeUndefined();
  });

  it('knows a token by its digest only', () => {
    expect(tokens.byToken('ci-secret')).toBe('ci');
    expect(tokens.byToken(tokenHash('ci-secret'))).toBeUndefined();
    expect(tokens.byToken('')).toBeUndefined();
  });
});

// A named client's limits over a real 127.0.0.1 socket, spoken to by the SDK client: past its rate
// (or its cap of calls at once) a tools/call is answered at once with HTTP 429, Retry-After and the
// JSON-RPC -32029 error carrying the limit and `retryAfter`, while another client is served; inside
// discover mode's mcphost_call_tool too; /metrics counts each client's calls by outcome.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { toolSurface } from '../../src/discover/surface.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';
import type { HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const backend = defineBackend({
  name: 'probe',
  version: '1.0.0',
  description: 'quick and slow answers',
  tools: [
    { name: 'quick', description: 'answers at once', input: z.object({}), handler: () => 'quick' },
    {
      name: 'slow',
      description: 'answers after ms milliseconds',
      input: z.object({ ms: z.number().int().max(5_000) }),
      handler: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve('slow'), ms)),
    },
  ],
});

const open: Array<{ serving: HttpServing; registry: Registry; clients: Client[] }> = [];
afterEach(async () => {
  for (const { serving, registry, clients } of open.splice(0)) {
    await Promise.allSettled(clients.map((c) => c.close()));
    await serving.close();
    await registry.close();
  }
});

async function serve(mode: 'flat' | 'discover' = 'flat') {
  const registry = await Registry.create([inlineBackend('probe', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 10_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  toolSurface(registry).configure({ mode, pinned: [] });
  const clients = namedClientsSchema.parse({
    a: { token: tokenHash('token-a') },
    b: { token: tokenHash('token-b'), limits: { rate: { perMinute: 6, burst: 2 }, tools: { probe_slow: { concurrency: 1 } } } },
  });
  const serving = await serveOnLoopback(registry, { clients });
  const entry = { serving, registry, clients: [] as Client[] };
  open.push(entry);
  const connect = async (token: string, era: 'legacy' | 'modern') => {
    const answers: Response[] = [];
    const client = new Client(
      { name: 'limits-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport = new StreamableHTTPClientTransport(new URL(serving.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      // The answers as they came, for their status and headers (the SDK reports a 429's body only).
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        answers.push(res);
        return res;
      },
    });
    await client.connect(transport);
    entry.clients.push(client);
    return { client, lastAnswer: () => answers.at(-1)! };
  };
  return { connect, url: serving.url };
}

/** What a call refused with HTTP 429 told the SDK client: the status and the JSON-RPC error in the body. */
async function refused(
  work: Promise<unknown>,
): Promise<{ status?: number; error: { code: number; message: string; data: Record<string, unknown> } }> {
  try {
    await work;
  } catch (error) {
    const data = (error as { data?: { status?: number; text?: string } }).data;
    return { status: data?.status, error: (JSON.parse(data?.text ?? '{}') as { error: never }).error };
  }
  throw new Error('expected a refusal');
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`limits (${era} era)`, () => {
    it('refuses a client past its rate with 429, Retry-After and -32029, while another client is served', async () => {
      const { connect, url } = await serve();
      const [a, b] = [await connect('token-a', era), await connect('token-b', era)];
      for (let i = 0; i < 2; i++) expect((await b.client.callTool({ name: 'probe_quick', arguments: {} })).isError).toBeFalsy();
      const third = await refused(b.client.callTool({ name: 'probe_quick', arguments: {} }));
      expect(third.status).toBe(429);
      expect(b.lastAnswer().headers.get('retry-after')).toBe('10');
      expect(third.error).toMatchObject({
        code: -32029,
        message: 'client b is past http.clients.b.limits.rate (6/min, burst 2) for probe_quick: retry after 10 s',
        data: { client: 'b', tool: 'probe_quick', limit: 'http.clients.b.limits.rate (6/min, burst 2)', retryAfter: 10 },
      });
      // A is not held to B's limits, and is served meanwhile.
      for (let i = 0; i < 5; i++)
        expect((await a.client.callTool({ name: 'probe_quick', arguments: {} })).content).toEqual([{ type: 'text', text: 'quick' }]);
      const metrics = await (await fetch(url.replace('/mcp', '/metrics'), { headers: { authorization: 'Bearer token-a' } })).text();
      expect(metrics).toMatch(/mcphost_client_calls_total\{client="b",outcome="limit"\} 1/);
      expect(metrics).toMatch(/mcphost_client_calls_total\{client="b",outcome="success"\} 2/);
      expect(metrics).toMatch(/mcphost_client_calls_total\{client="a",outcome="success"\} 5/);
    });

    it("caps a tool's calls at once: the second is refused at once with retryAfter 1 while the first runs", async () => {
      const { connect } = await serve();
      const b = await connect('token-b', era);
      let firstDone = false;
      const first = b.client.callTool({ name: 'probe_slow', arguments: { ms: 1_500 } }).finally(() => (firstDone = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await refused(b.client.callTool({ name: 'probe_slow', arguments: { ms: 10 } }));
      // Answered while the first still runs: refused at once, not queued behind it.
      expect(firstDone).toBe(false);
      expect(second).toMatchObject({
        status: 429,
        error: { code: -32029, data: { limit: 'http.clients.b.limits.tools.probe_slow.concurrency (1 at once)', retryAfter: 1 } },
      });
      expect((await first).content).toEqual([{ type: 'text', text: 'slow' }]);
    });

    it('refuses the inner call of mcphost_call_tool in discover mode alike', async () => {
      const { connect } = await serve('discover');
      const b = await connect('token-b', era);
      const call = () => b.client.callTool({ name: 'mcphost_call_tool', arguments: { name: 'probe_quick', arguments: {} } });
      await call();
      await call();
      expect(await refused(call())).toMatchObject({ status: 429, error: { code: -32029, data: { tool: 'probe_quick', retryAfter: 10 } } });
    });
  });
}

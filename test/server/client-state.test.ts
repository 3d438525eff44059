// State a backend keeps per client (`ctx.client.state`): two clients of one HTTP host never see each
// other's value, whatever the era; a 2025-era session keeps its value between requests and loses
// it when it ends; a 2026-era request is a client of its own; stdio is one client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import type { HttpServing } from '../../src/server/http.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const timeouts = { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 };

/** A notepad per client: `write` keeps a note, `read` answers it with who asked. */
function notepad(disposed: string[]) {
  const pad = (ctx: { client: { state<T>(key: string, create: () => T): T } }) =>
    ctx.client.state('pad', () => ({ note: '', dispose: () => void disposed.push('pad') }));
  return defineBackend({
    name: 'pad',
    version: '1.0.0',
    description: 'one note per client',
    tools: [
      {
        name: 'write',
        description: 'keeps a note for this client',
        input: z.object({ note: z.string() }),
        handler: ({ note }, ctx) => {
          pad(ctx).note = note;
          return { note };
        },
      },
      {
        name: 'read',
        description: 'the note of this client',
        input: z.object({}),
        handler: (_args, ctx) => ({
          note: pad(ctx).note,
          client: ctx.client.id,
          transport: ctx.client.transport,
          remote: ctx.client.remote,
        }),
      },
    ],
  });
}

const open: Array<{ serving: HttpServing; registry: Registry; clients: Client[] }> = [];
afterEach(async () => {
  for (const { serving, registry, clients } of open.splice(0)) {
    await Promise.allSettled(clients.map((c) => c.close()));
    await serving.close();
    await registry.close();
  }
});

async function serve(disposed: string[] = []) {
  const registry = await Registry.create([inlineBackend('pad', notepad(disposed))], { logger: silentLogger, timeouts });
  const serving = await serveOnLoopback(registry);
  const entry = { serving, registry, clients: [] as Client[] };
  open.push(entry);
  const connect = async (era: 'legacy' | 'modern') => {
    const client = new Client({ name: 't', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    entry.clients.push(client);
    return client;
  };
  return { connect, serving };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as { note: string; client: string; transport: string; remote: boolean };
}

describe('per-client state', () => {
  it('keeps each 2025-era session its own note, under interleaved concurrent calls', async () => {
    const { connect } = await serve();
    const [a, b] = await Promise.all([connect('legacy'), connect('legacy')]);
    for (let round = 0; round < 10; round++) {
      await Promise.all([call(a, 'pad_write', { note: `a${round}` }), call(b, 'pad_write', { note: `b${round}` })]);
      const [ra, rb] = await Promise.all([call(a, 'pad_read'), call(b, 'pad_read')]);
      expect(ra.note).toBe(`a${round}`);
      expect(rb.note).toBe(`b${round}`);
      expect(ra.client).not.toBe(rb.client);
    }
    const seen = await call(a, 'pad_read');
    expect(seen).toMatchObject({ transport: 'http', remote: true });
  });

  it('gives every 2026-era request a fresh client: nothing carries over without a handle', async () => {
    const { connect } = await serve();
    const m = await connect('modern');
    await call(m, 'pad_write', { note: 'kept?' });
    const read = await call(m, 'pad_read');
    expect(read.note).toBe('');
  });

  it('drops a session’s state (and tells it) when the session ends', async () => {
    const disposed: string[] = [];
    const { connect, serving } = await serve(disposed);
    const a = await connect('legacy');
    await call(a, 'pad_write', { note: 'x' });
    expect(serving.sessionCount()).toBe(1);
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    await a.close();
    await expect.poll(() => disposed).toEqual(['pad']);
  });
});

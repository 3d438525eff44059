// Hostile requests from issue 14, answered by the host within bounds: huge key counts and nesting,
// huge results and error texts, a read that never ends, a timeout past what setTimeout can wait.
// Spoken through the SDK client in-process, as a client would send them.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { createServer } from '../../src/server/mcp-server.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const ran: string[] = [];

const backend = defineBackend({
  name: 'big',
  version: '1.0.0',
  description: 'answers as large as asked',
  tools: [
    {
      name: 'echo',
      description: 'echoes a message',
      input: z.object({ message: z.string(), times: z.number().int().optional() }),
      handler: ({ message }) => {
        ran.push('echo');
        return message;
      },
    },
    {
      name: 'text',
      description: 'returns `chars` characters',
      input: z.object({ chars: z.number().int() }),
      handler: ({ chars }) => 'a'.repeat(chars),
    },
    {
      name: 'rows',
      description: 'returns `count` objects as structured content',
      input: z.object({ count: z.number().int() }),
      handler: ({ count }) => ({ rows: Array.from({ length: count }, (_, i) => ({ i, name: `row ${i}` })) }),
    },
    {
      name: 'shout',
      description: 'throws an error quoting its whole input',
      input: z.object({ chars: z.number().int() }),
      handler: ({ chars }) => {
        throw new Error(`cannot parse ${'x'.repeat(chars)}`);
      },
    },
    {
      name: 'wait',
      description: 'waits `ms`, honouring its signal',
      input: z.object({ ms: z.number() }),
      handler: ({ ms }, ctx) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(`waited ${ms} ms`), ms);
          ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)));
        }),
    },
  ],
  resources: [
    { uri: 'big://blob', name: 'blob', read: () => 'b'.repeat(2 * 1024 * 1024) },
    { uri: 'big://never', name: 'never', read: () => new Promise(() => undefined) },
  ],
});

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function registryOf(options: { toolMs?: number; resultBytes?: number } = {}) {
  const registry = await Registry.create([inlineBackend('big', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: options.toolMs ?? 5_000, startMs: 5_000, shutdownMs: 1_000 },
    limits: options.resultBytes ? { resultBytes: options.resultBytes } : undefined,
  });
  open.push(() => registry.close());
  return registry;
}

/** The registry behind an MCP server, with the SDK client connected in-process. */
async function connect(options: { toolMs?: number; resultBytes?: number } = {}) {
  const registry = await registryOf(options);
  const server = createServer(registry, { name: 'mcphost', version: '0.0.0-test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hostile', version: '1' });
  await client.connect(clientSide);
  open.unshift(() => client.close());
  return client;
}

const textOf = (r: { content: unknown }) => (r.content as Array<{ text: string }>)[0].text;

// The transports refuse such messages as they read them (test/server/http.test.ts, serve-stdio);
// these reach the registry as `mcphost call` and in-process callers do.
describe('arguments', () => {
  it('refuses 300,000 unknown argument keys with a short error, before zod or the handler sees them', async () => {
    const registry = await registryOf();
    const args: Record<string, unknown> = { message: 'hi' };
    for (let i = 0; i < 300_000; i++) args[`k${i}`] = 1;
    const { result: r } = await registry.callTool('big_echo', args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Invalid arguments for tool big_echo: the arguments hold more than 100,000 values (keys and elements); send fewer',
    );
    expect(ran).not.toContain('echo');
  });

  it('lists the first 20 of 5,000 unknown keys and counts the rest', async () => {
    const client = await connect();
    const args: Record<string, unknown> = { message: 'hi' };
    for (let i = 0; i < 5_000; i++) args[`k${i}`] = 1;
    const r = await client.callTool({ name: 'big_echo', arguments: args });
    const text = textOf(r);
    expect(text).toContain('- k0: unknown argument (valid: message, times)');
    expect(text).toContain('- k19: unknown argument');
    expect(text).not.toContain('- k20:');
    expect(text).toMatch(/- … and 4,980 more$/);
    expect(text.length).toBeLessThan(2_000);
    expect((r._meta?.['mcphost/error'] as { data: { moreIssues: number } }).data.moreIssues).toBe(4_980);
  });

  it('refuses arguments nested 10,000 deep', async () => {
    const registry = await registryOf();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const { result: r } = await registry.callTool('big_echo', { message: 'hi', deep });
    expect(textOf(r)).toBe('Invalid arguments for tool big_echo: the arguments nest deeper than 64 levels; flatten them');
  });

  it('answers an unknown tool name of a million characters with a short protocol error', async () => {
    const client = await connect();
    const error = await client.callTool({ name: `big_${'z'.repeat(1_000_000)}`, arguments: {} }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message.length).toBeLessThan(500);
  });
});

describe('answers', () => {
  it('refuses a 100-million-character result with "result too large", naming the size and the cap', async () => {
    const client = await connect();
    const r = await client.callTool({ name: 'big_text', arguments: { chars: 100_000_000 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'tool big_text: result too large (100,000,002 bytes, cap 8,388,608): narrow the request (a smaller range, fewer results, a more specific query), or raise limits.resultBytes',
    );
    expect(r._meta?.['mcphost/error']).toMatchObject({ code: 'RESULT_TOO_LARGE' });
  });

  it('measures structured results too, and serves those under the cap', async () => {
    const client = await connect({ resultBytes: 1024 * 1024 });
    expect((await client.callTool({ name: 'big_rows', arguments: { count: 10 } })).structuredContent).toMatchObject({
      rows: expect.arrayContaining([{ i: 9, name: 'row 9' }]),
    });
    const r = await client.callTool({ name: 'big_rows', arguments: { count: 100_000 } });
    expect(textOf(r)).toMatch(/^tool big_rows: result too large \(\d[\d,]+ bytes, cap 1,048,576\)/);
  });

  it('cuts an error message that quotes 10 MB of input to 16 KiB, saying how much was left out', async () => {
    const client = await connect();
    const r = await client.callTool({ name: 'big_shout', arguments: { chars: 10_000_000 } });
    const text = textOf(r);
    expect(text.length).toBeLessThan(17 * 1024);
    expect(text).toMatch(/^cannot parse x+… \(9,983,629 more characters\)$/);
  });

  it('refuses a resource read above the cap', async () => {
    const client = await connect({ resultBytes: 1024 * 1024 });
    await expect(client.readResource({ uri: 'big://blob' })).rejects.toThrow(
      /^resource big:\/\/blob: result too large \(2,097,\d{3} bytes, cap 1,048,576\): narrow the request/,
    );
  });

  it('answers a resource read that never ends with a timeout', async () => {
    const client = await connect({ toolMs: 50 });
    await expect(client.readResource({ uri: 'big://never' })).rejects.toThrow('reading big://never timed out after 50 ms');
  });
});

describe('cancellation', () => {
  it('does not start a handler whose call was cancelled before it began', async () => {
    const registry = await registryOf();
    const before = ran.length;
    const outcome = await registry.callTool('big_echo', { message: 'late' }, { signal: AbortSignal.abort('gave up') });
    expect(outcome.error).toMatchObject({ kind: 'cancelled', message: 'tool big_echo was cancelled: gave up' });
    expect(ran.length).toBe(before);
  });
});

describe('timeouts', () => {
  it('clamps a client timeout of 2^31 ms to what setTimeout can wait instead of timing out at once', async () => {
    const client = await connect();
    for (const timeoutMs of [2 ** 31, 2 ** 40, 1e300]) {
      const r = await client.callTool({ name: 'big_wait', arguments: { ms: 30 }, _meta: { 'mcphost/timeoutMs': timeoutMs } });
      expect(r.content).toEqual([{ type: 'text', text: 'waited 30 ms' }]);
    }
  });
});

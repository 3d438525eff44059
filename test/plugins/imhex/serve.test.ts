// Every imhex tool through `mcphost serve` (stdio), spoken to by the official SDK client, against
// the fake ImHex and against a real file.
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type StdioSession } from '../../helpers/mcp.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { seededBytes, writeImHexConfig } from './helpers.ts';
import { everyTool, type CallTool } from './scenario.ts';

const tmp = tempDir('imhex-serve-');
const DATA = seededBytes(64 * 1024, 21);

function sdkCall(session: StdioSession): CallTool {
  return async (tool, args) => {
    const r = (await session.client.callTool({ name: `imhex_${tool}`, arguments: args })) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      _meta?: Record<string, unknown>;
      content: Array<{ type: string; text?: string }>;
    };
    return {
      isError: r.isError === true,
      structured: (r.structuredContent ?? {}) as never,
      error: r._meta?.['mcphost/error'] as never,
      text: r.content.map((c) => c.text ?? '').join('\n'),
    };
  };
}

describe('mcphost serve --plugins imhex, on a local file', () => {
  const dir = path.join(tmp.dir, 'file');
  mkdirSync(dir);
  const file = path.join(dir, 'firmware.bin');
  writeFileSync(file, DATA);
  writeImHexConfig(dir, { file: 'firmware.bin', writable: true });
  let session: StdioSession;
  beforeAll(async () => {
    session = await connectStdio(['--plugins', 'imhex'], { cwd: dir });
  });
  afterAll(() => session?.close());

  it('lists seven tools with input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'imhex_get_offset_info',
      'imhex_get_selection',
      'imhex_hexdump',
      'imhex_read_bytes',
      'imhex_search',
      'imhex_set_selection',
      'imhex_write_bytes',
    ]);
    const read = tools.find((t) => t.name === 'imhex_read_bytes')!;
    expect(read.inputSchema.properties).toMatchObject({
      offset: { type: 'integer', minimum: 0 },
      count: { type: 'integer', default: 256 },
    });
    expect(read.outputSchema?.required).toEqual(['offset', 'count', 'bytes_read', 'hex_data']);
    expect(tools.find((t) => t.name === 'imhex_write_bytes')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it('answers every tool with the protocol’s shapes and the file’s bytes', async () => {
    await everyTool(sdkCall(session), { persistentSelection: true, truth: () => readFileSync(file) });
  }, 60_000);
});

describe('mcphost serve --plugins imhex, on ImHex (fake)', () => {
  const dir = path.join(tmp.dir, 'imhex');
  mkdirSync(dir);
  let fake: FakeImHex;
  let session: StdioSession;
  beforeAll(async () => {
    fake = await startFakeImHex({ data: DATA });
    writeImHexConfig(dir, { mode: 'imhex', port: fake.port, requestTimeoutMs: 2000 });
    session = await connectStdio(['--plugins', 'imhex'], { cwd: dir });
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('answers every tool with the protocol’s shapes and ImHex’s bytes', async () => {
    await everyTool(sdkCall(session), { persistentSelection: true, truth: () => fake.data });
  }, 60_000);

  it('returns ImHex’s JSON-RPC errors as tool errors with their code, and keeps serving', async () => {
    const call = sdkCall(session);
    fake.noProvider = true;
    const none = await call('read_bytes', { offset: 0, count: 1 });
    expect(none.isError).toBe(true);
    expect(none.error!).toMatchObject({ code: -32001 });
    expect(none.error!.message).toMatch(/^No active data provider/);
    fake.noProvider = false;
    fake.readOnly = true;
    expect((await call('write_bytes', { offset: 0, data: '00' })).error!).toMatchObject({
      code: -32003,
      message: 'Provider is not writable',
    });
    fake.readOnly = false;
    fake.script = ['not-json'];
    expect((await call('get_selection', {})).error!).toMatchObject({ code: 'BAD_RESPONSE' });
    fake.silent = true;
    const hung = await call('read_bytes', { offset: 0, count: 1 });
    expect(hung.error!).toMatchObject({ code: 'UNAVAILABLE' });
    expect(hung.text).toMatch(/did not answer read_bytes within 2000 ms/);
    fake.silent = false;
    expect((await call('read_bytes', { offset: 5, count: 2 })).structured).toMatchObject({
      hex_data: fake.data.subarray(5, 7).toString('hex'),
    });
  }, 60_000);
});

describe('mcphost serve: progress of a large search', () => {
  it('sends increasing progress notifications while searching a sparse 2 GiB file', async () => {
    const dir = path.join(tmp.dir, 'progress');
    mkdirSync(dir);
    const big = path.join(dir, 'sparse.bin');
    writeFileSync(big, '');
    truncateSync(big, 2 * 1024 ** 3);
    writeImHexConfig(dir, { file: 'sparse.bin' });
    const session = await connectStdio(['--plugins', 'imhex'], { cwd: dir });
    try {
      const updates: Array<{ progress: number; total?: number }> = [];
      const r = (await session.client.callTool(
        { name: 'imhex_search', arguments: { pattern: '01 02 03', end_offset: 512 * 1024 ** 2 } },
        { onprogress: (p) => void updates.push(p) },
      )) as { structuredContent?: unknown; isError?: boolean };
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ offsets: [] });
      expect(updates.length).toBeGreaterThan(5);
      for (const [i, u] of updates.entries()) {
        expect(u.total).toBe(512 * 1024 ** 2);
        if (i > 0) expect(u.progress).toBeGreaterThan(updates[i - 1].progress);
      }
    } finally {
      await session.close();
    }
  }, 60_000);
});

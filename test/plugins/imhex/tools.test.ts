// Every imhex tool in-process — `mcphost serve` (the official SDK client over the in-memory
// transport) and `mcphost call` (with --file and other setting flags) — against a real file and
// against the fake ImHex MCP Integration server over real TCP. The real binary is exercised once
// per transport in serve.test.ts and call.test.ts.
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { isolatedEnv } from '../../helpers/cli.ts';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes, writeImHexConfig } from './helpers.ts';
import { everyTool, oneShotCall, sdkCall } from './scenario.ts';

const tmp = tempDir('imhex-tools-');
const DATA = seededBytes(64 * 1024, 21);

function folder(name: string): string {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir);
  return dir;
}

describe('served in-process, on a local file', () => {
  const dir = folder('file');
  const file = path.join(dir, 'firmware.bin');
  writeFileSync(file, DATA);
  writeImHexConfig(dir, { file: 'firmware.bin', writable: true });
  let session: InProcessSession;
  beforeAll(async () => {
    session = await serveInProcess({ cwd: dir, plugins: ['imhex'] });
  });
  afterAll(() => session?.close());

  it('answers every tool with the protocol’s shapes and the file’s bytes', async () => {
    await everyTool(sdkCall(session), { persistentSelection: true, truth: () => readFileSync(file) });
  });
});

describe('one-shot calls in-process, with --file and --writable', () => {
  const dir = folder('one-shot');
  const file = path.join(dir, 'data.bin');
  writeFileSync(file, DATA);

  it('answers every tool, checked against the file', async () => {
    const flags = [
      { name: 'file', value: 'data.bin', text: '--file' },
      { name: 'writable', value: 'true', text: '--writable' },
    ];
    await everyTool(
      oneShotCall((tool, args) => callInProcess({ cwd: dir, plugin: 'imhex', tool, args, flags })),
      { persistentSelection: false, truth: () => readFileSync(file) },
    );
  });

  it('says both ways to configure it when there is neither a file nor an ImHex', async () => {
    const empty = folder('empty');
    const r = await callInProcess({
      cwd: empty,
      plugin: 'imhex',
      tool: 'get_selection',
      args: {},
      flags: [{ name: 'mode', value: 'file', text: '--mode' }],
    });
    expect(r.error).toMatchObject({ kind: 'unavailable' });
    expect(r.error!.message).toMatch(
      /mode is "file" but no file is set: set plugins\.imhex\.file \(or IMHEX_FILE, or --file on mcphost call imhex\)/,
    );
  });
});

describe('served in-process, on ImHex (the fake MCP Integration server)', () => {
  const dir = folder('imhex');
  let fake: FakeImHex;
  let session: InProcessSession;
  beforeAll(async () => {
    fake = await startFakeImHex({ data: DATA });
    writeImHexConfig(dir, { mode: 'imhex', port: fake.port, requestTimeoutMs: 1000 });
    session = await serveInProcess({ cwd: dir, plugins: ['imhex'] });
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('answers every tool with the protocol’s shapes and ImHex’s bytes', async () => {
    await everyTool(sdkCall(session), { persistentSelection: true, truth: () => fake.data });
  });

  it('returns ImHex’s JSON-RPC errors with their code, and keeps serving', async () => {
    const call = sdkCall(session);
    fake.noProvider = true;
    const none = await call('read_bytes', { offset: 0, count: 1 });
    expect(none.error).toMatchObject({ code: -32001 });
    expect(none.text).toMatch(
      /^No active data provider.* — open a file in ImHex first \(or set plugins\.imhex\.file to work on a local file\)/,
    );
    fake.noProvider = false;
    fake.readOnly = true;
    expect((await call('write_bytes', { offset: 0, data: '00' })).error).toMatchObject({
      code: -32003,
      message: 'Provider is not writable',
    });
    fake.readOnly = false;
    fake.script = ['not-json'];
    expect((await call('get_selection', {})).error).toMatchObject({ code: 'BAD_RESPONSE' });
    fake.silent = true;
    const hung = await call('read_bytes', { offset: 0, count: 1 });
    fake.silent = false;
    expect(hung.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(hung.text).toMatch(/did not answer read_bytes within 1000 ms/);
    expect((await call('read_bytes', { offset: 5, count: 2 })).structured).toMatchObject({
      hex_data: fake.data.subarray(5, 7).toString('hex'),
    });
  });
});

describe('progress of a large search', () => {
  it('sends increasing progress notifications while searching a sparse 2 GiB file', async () => {
    const dir = folder('progress');
    const big = path.join(dir, 'sparse.bin');
    writeFileSync(big, '');
    truncateSync(big, 2 * 1024 ** 3);
    writeImHexConfig(dir, { file: 'sparse.bin' });
    const session = await serveInProcess({ cwd: dir, plugins: ['imhex'], env: isolatedEnv(dir) });
    try {
      const updates: Array<{ progress: number; total?: number }> = [];
      const r = await session.client.callTool(
        { name: 'imhex_search', arguments: { pattern: '01 02 03', end_offset: 512 * 1024 ** 2 } },
        { onprogress: (p) => void updates.push(p) },
      );
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
  });
});

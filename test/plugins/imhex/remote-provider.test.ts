// The ImHex provider against the fake ImHex over real TCP: results, JSON-RPC errors, malformed
// answers, dropped connections, a server that never answers, cancellation.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePattern } from '../../../plugins/imhex/hex.ts';
import { RemoteProvider } from '../../../plugins/imhex/remote/provider.ts';
import type { ProviderCall } from '../../../plugins/imhex/provider.ts';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';
import { naiveSearch, seededBytes } from './helpers.ts';

const DATA = seededBytes(5000, 9);
let fake: FakeImHex;
let imhex: RemoteProvider;
const call = (signal = new AbortController().signal): ProviderCall => ({ signal });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('expected a failure')),
    (e) => e,
  );

function connect(options: { requestTimeoutMs?: number } = {}) {
  // A long request timeout: a malformed answer must fail at once, not by waiting.
  return new RemoteProvider({
    host: '127.0.0.1',
    port: fake.port,
    connectTimeoutMs: 2000,
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
  });
}

beforeAll(async () => {
  fake = await startFakeImHex({ data: DATA });
  imhex = connect();
});
afterEach(() => {
  fake.script = [];
  fake.silent = false;
  fake.noProvider = false;
  fake.readOnly = false;
  fake.failures = {};
});
afterAll(async () => {
  await imhex.close();
  await fake.close();
});

describe('ImHex provider: commands', () => {
  it('answers every command over one reused connection with fresh ids', async () => {
    const connections = fake.connections;
    const before = fake.requests.length;
    expect(await imhex.getSelection(call())).toEqual({ start_offset: null, size: 0, end_offset: null });
    expect(await imhex.setSelection(10, 5, call())).toEqual({ status: 'success', start_offset: 10, size: 5 });
    expect(await imhex.getSelection(call())).toEqual({ start_offset: 10, size: 5, end_offset: 14 });
    expect(await imhex.readBytes(4990, 16, call())).toEqual({
      offset: 4990,
      count: 16,
      bytes_read: 10,
      hex_data: DATA.subarray(4990).toString('hex'),
    });
    expect(await imhex.writeBytes(100, Buffer.from('c0ffee', 'hex'), call())).toEqual({ offset: 100, bytes_written: 3, status: 'success' });
    expect(fake.data.subarray(100, 103).toString('hex')).toBe('c0ffee');
    expect(await imhex.getOffsetInfo(70_000, call())).toEqual({ offset: 70_000, address_str: '0x00011170' });
    const sent = fake.requests.slice(before) as Array<{ id: number; jsonrpc: string; method: string }>;
    expect(sent.map((r) => r.method)).toEqual([
      'get_selection',
      'set_selection',
      'get_selection',
      'read_bytes',
      'write_bytes',
      'get_offset_info',
    ]);
    expect(new Set(sent.map((r) => r.id)).size).toBe(sent.length);
    expect(sent.every((r) => r.jsonrpc === '2.0')).toBe(true);
    expect(fake.connections - connections).toBeLessThanOrEqual(1);
  });

  it('serves concurrent calls one at a time, each with its own answer', async () => {
    const offsets = Array.from({ length: 25 }, (_, i) => i * 150);
    const results = await Promise.all(offsets.map((o) => imhex.readBytes(o, 8, call())));
    results.forEach((r, i) => expect(r.hex_data).toBe(fake.data.subarray(offsets[i], offsets[i] + 8).toString('hex')));
  });

  it('searches wildcard patterns by their literal run and checks each hit', async () => {
    const data = fake.data;
    for (const at of [7, 1234, 3000, 4995]) data.set([0xca, at & 0xff, 0xba, 0xbe], at);
    const pattern = [0xca, null, 0xba, 0xbe];
    const expected = naiveSearch(data, pattern);
    expect(await imhex.search({ pattern: parsePattern('pattern', 'ca ?? ba be'), start_offset: 0, maxResults: 1000 }, call())).toEqual({
      offsets: expected,
    });
    expect(
      await imhex.search({ pattern: parsePattern('pattern', 'ca ?? ba be'), start_offset: 8, end_offset: 3000, maxResults: 1000 }, call()),
    ).toEqual({
      offsets: naiveSearch(data, pattern, 8, 3000),
    });
    expect(await imhex.search({ pattern: parsePattern('pattern', 'ca ?? ba be'), start_offset: 0, maxResults: 2 }, call())).toEqual({
      offsets: expected.slice(0, 2),
      truncated: true,
    });
    const e = await failure(imhex.search({ pattern: parsePattern('pattern', '?? ??'), start_offset: 0, maxResults: 5 }, call()));
    expect(e).toMatchObject({ code: -32602 });
  });
});

describe('ImHex provider: errors', () => {
  it('returns JSON-RPC errors as tool errors with ImHex’s code and message', async () => {
    fake.noProvider = true;
    const none = await failure(imhex.readBytes(0, 1, call()));
    expect(none.code).toBe(-32001);
    expect(none.message).toMatch(/^No active data provider — open a file in ImHex/);
    fake.noProvider = false;
    fake.readOnly = true;
    expect(await failure(imhex.writeBytes(0, Buffer.from([1]), call()))).toMatchObject({
      code: -32003,
      message: 'Provider is not writable',
    });
    fake.failures.search = { code: -32603, message: 'Internal error' };
    expect(await failure(imhex.search({ pattern: parsePattern('p', '00'), start_offset: 0, maxResults: 1 }, call()))).toMatchObject({
      code: -32603,
      message: 'Internal error',
    });
    fake.failures.get_selection = { code: -32050, message: 'Busy', data: { why: 'modal dialog' } };
    expect(await failure(imhex.getSelection(call()))).toMatchObject({
      code: -32050,
      message: 'Busy',
      data: { imhex: { why: 'modal dialog' } },
    });
    expect(await failure(imhex.setSelection(4999, 2, call()))).toMatchObject({ code: -32602 });
  });

  it('says ImHex is not reachable, as an unavailable error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const p = new RemoteProvider({ host: '127.0.0.1', port, connectTimeoutMs: 2000, requestTimeoutMs: 2000 });
    const e = await failure(p.readBytes(0, 1, call()));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toBe(`ImHex not reachable at 127.0.0.1:${port} — is the MCP Integration plugin's server running?`);
    expect(e.data).toMatchObject({ reason: 'ECONNREFUSED' });
    expect((await p.health()).ok).toBe(false);
  });

  it.each(['not-json', 'no-id', 'wrong-id', 'wrong-version', 'no-result', 'bad-result'] as const)(
    'fails at once on a malformed answer (%s), then recovers on a new connection',
    async (kind) => {
      const connections = fake.connections;
      fake.script = [kind];
      const e = await failure(imhex.readBytes(0, 4, call()));
      expect(e.code).toBe('BAD_RESPONSE');
      expect(e.message).toMatch(new RegExp(`^ImHex at 127\\.0\\.0\\.1:${fake.port} sent a malformed answer to read_bytes`));
      expect((await imhex.readBytes(0, 4, call())).hex_data).toBe(fake.data.subarray(0, 4).toString('hex'));
      expect(fake.connections).toBe(connections + 1);
    },
  );

  it('reports an error answer with id null (ImHex could not read the request) with its code', async () => {
    fake.script = ['null-id-error'];
    expect(await failure(imhex.getSelection(call()))).toMatchObject({ code: -32700, message: 'Parse error' });
    expect(await imhex.getSelection(call())).toHaveProperty('size');
  });

  it('accepts answers split across packets, blank lines and extra fields', async () => {
    fake.script = ['split', 'garbage-first', 'extra-fields'];
    const expected = { offset: 3, count: 5, bytes_read: 5, hex_data: fake.data.subarray(3, 8).toString('hex') };
    expect(await imhex.readBytes(3, 5, call())).toEqual(expected);
    expect(await imhex.readBytes(3, 5, call())).toEqual(expected);
    expect(await imhex.readBytes(3, 5, call())).toEqual(expected); // the extra field is dropped
  });

  it('sends a read again once when the connection drops, and reconnects after ImHex restarts', async () => {
    fake.script = ['drop'];
    expect((await imhex.readBytes(10, 2, call())).bytes_read).toBe(2);
    fake.script = ['drop', 'drop'];
    const e = await failure(imhex.readBytes(10, 2, call()));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(/closed the connection before answering read_bytes/);
    fake.dropConnections();
    expect((await imhex.getSelection(call())).size).toBeGreaterThanOrEqual(0);
  });

  it('never sends a write twice: a drop during write_bytes is reported', async () => {
    const before = fake.requests.length;
    fake.script = ['drop'];
    const e = await failure(imhex.writeBytes(0, Buffer.from('11', 'hex'), call()));
    expect(e.message).toMatch(/closed the connection before answering write_bytes \(the write may or may not have happened\)/);
    expect(fake.requests.slice(before).length).toBe(1);
  });

  it('gives up on a server that never answers, then works again when it does', async () => {
    const impatient = connect({ requestTimeoutMs: 400 });
    fake.silent = true;
    const e = await failure(impatient.readBytes(0, 1, call()));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(/did not answer read_bytes within 400 ms — is ImHex busy or hung\?/);
    fake.silent = false;
    expect((await impatient.readBytes(0, 1, call())).bytes_read).toBe(1);
    await impatient.close();
  });

  it('stops waiting when cancelled and does not mistake the late answer for the next one', async () => {
    fake.script = ['slow', 'slow'];
    const controller = new AbortController();
    const pending = imhex.readBytes(0, 1, call(controller.signal));
    setTimeout(() => controller.abort(new Error('client cancelled')), 30);
    await expect(pending).rejects.toThrow('client cancelled');
    // This answer comes after the abandoned one would have: it must be the one we get.
    expect((await imhex.readBytes(20, 3, call())).hex_data).toBe(fake.data.subarray(20, 23).toString('hex'));
  });
});

// The fake ImHex speaks the protocol of the issue: checked here over raw TCP, line by line, so
// the client tests stand on a server that behaves as specified.
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeImHex, type FakeImHex } from '../../fixtures/imhex/fake-imhex.js';

type Fake = FakeImHex;
let fake: Fake;
let socket: Socket;
const lines: string[] = [];
let waiting: ((line: string) => void) | undefined;

beforeAll(async () => {
  fake = await startFakeImHex({ data: Buffer.from('0123456789abcdef0123') });
  socket = new Socket();
  await new Promise<void>((r) => socket.connect(fake.port, '127.0.0.1', r));
  let pending = '';
  socket.on('data', (chunk) => {
    pending += chunk.toString();
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      lines.push(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
    if (lines.length && waiting) waiting(lines.shift()!);
  });
});
afterAll(async () => {
  socket.destroy();
  await fake.close();
});

/** Sends one raw line and returns the parsed response line. */
function raw(line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    waiting = (answer) => {
      waiting = undefined;
      expect(answer.endsWith('\r')).toBe(false);
      resolve(JSON.parse(answer));
    };
    socket.write(`${line}\n`);
  });
}
let nextId = 1;
const rpc = (method: string, params?: unknown) => {
  const id = nextId++;
  return raw(JSON.stringify({ jsonrpc: '2.0', method, ...(params !== undefined && { params }), id }));
};

describe('fake ImHex: results', () => {
  it('answers each command with the result shape of the protocol and the request id', async () => {
    expect(await rpc('get_selection')).toEqual({ jsonrpc: '2.0', result: { start_offset: null, size: 0, end_offset: null }, id: 1 });
    expect((await rpc('set_selection', { start_offset: 4, size: 3 })).result).toEqual({ status: 'success', start_offset: 4, size: 3 });
    expect((await rpc('get_selection')).result).toEqual({ start_offset: 4, size: 3, end_offset: 6 });
    expect((await rpc('read_bytes', { offset: 18, count: 4 })).result).toEqual({ offset: 18, count: 4, bytes_read: 2, hex_data: '3233' });
    expect((await rpc('write_bytes', { offset: 0, data: 'FF00' })).result).toEqual({ offset: 0, bytes_written: 2, status: 'success' });
    expect((await rpc('read_bytes', { offset: 0, count: 3 })).result).toMatchObject({ hex_data: 'ff0032' });
    expect((await rpc('search', { pattern: '3233' })).result).toEqual({ offsets: [2, 18] });
    expect((await rpc('search', { pattern: '3233', start_offset: 3, end_offset: 19 })).result).toEqual({ offsets: [18] });
    expect((await rpc('search', { pattern: '3233', end_offset: 18 })).result).toEqual({ offsets: [2] });
    expect((await rpc('get_offset_info', { offset: 4096 })).result).toEqual({ offset: 4096, address_str: '0x00001000' });
    expect((await rpc('get_offset_info', { offset: 2 ** 36 })).result).toMatchObject({ address_str: '0x1000000000' });
  });
});

describe('fake ImHex: errors', () => {
  const code = async (p: Promise<Record<string, unknown>>) => ((await p).error as { code: number }).code;

  it('-32700 for a line that is not JSON, with id null', async () => {
    expect(await raw('{not json')).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  });

  it('-32600 for requests that are not JSON-RPC 2.0 requests', async () => {
    expect(await code(raw('{"method":"get_selection","id":5}'))).toBe(-32600);
    expect(await raw('{"jsonrpc":"2.0","method":"get_selection"}')).toMatchObject({ error: { code: -32600 }, id: null });
    expect(await raw('{"jsonrpc":"2.0","id":6}')).toMatchObject({ error: { code: -32600 }, id: 6 });
    expect(await code(raw('[1,2]'))).toBe(-32600);
  });

  it('-32601 for an unknown method', async () => {
    expect(await rpc('format_disk')).toMatchObject({ error: { code: -32601, message: 'Method not found' } });
    expect(await code(rpc('toString'))).toBe(-32601);
  });

  it('-32602 for missing or invalid parameters and an empty pattern', async () => {
    expect(await code(rpc('read_bytes', { offset: 0 }))).toBe(-32602);
    expect(await code(rpc('read_bytes', { offset: -1, count: 1 }))).toBe(-32602);
    expect(await code(rpc('read_bytes', { offset: '0', count: 1 }))).toBe(-32602);
    expect(await code(rpc('write_bytes', { offset: 0, data: 'abc' }))).toBe(-32602);
    expect(await code(rpc('write_bytes', { offset: 0, data: 'zz' }))).toBe(-32602);
    expect(await code(rpc('search', { pattern: '' }))).toBe(-32602);
    expect(await code(rpc('set_selection', { start_offset: 0 }))).toBe(-32602);
    expect(await code(rpc('get_offset_info', [1]))).toBe(-32602);
  });

  it('-32001 without a data provider, -32003 when read-only, -32603 and -32000…-32099 when told to', async () => {
    fake.noProvider = true;
    expect(await rpc('get_selection')).toMatchObject({ error: { code: -32001, message: 'No active data provider' } });
    fake.noProvider = false;
    fake.readOnly = true;
    expect(await rpc('write_bytes', { offset: 0, data: '00' })).toMatchObject({
      error: { code: -32003, message: 'Provider is not writable' },
    });
    fake.readOnly = false;
    fake.failures.search = { code: -32603, message: 'Internal error' };
    fake.failures.read_bytes = { code: -32042, message: 'Provider busy', data: { retryAfterMs: 10 } };
    expect(await rpc('search', { pattern: '00' })).toMatchObject({ error: { code: -32603 } });
    expect(await rpc('read_bytes', { offset: 0, count: 1 })).toMatchObject({
      error: { code: -32042, message: 'Provider busy', data: { retryAfterMs: 10 } },
    });
    fake.failures = {};
  });
});

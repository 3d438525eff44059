// What the stdio transport answers before the SDK sees a message: lines that are not JSON-RPC, and
// requests sent before the session is open (the protocol asks for initialize first; pings may come
// before it, and a 2026-era request opens the session by carrying its envelope).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStdioTransport } from '../../src/server/stdio-transport.js';

function wire() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = createStdioTransport(stdin, stdout);
  const handed: unknown[] = [];
  transport.onmessage = (m) => void handed.push(m);
  const answers: unknown[] = [];
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) =>
    answers.push(
      ...chunk
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ),
  );
  const send = async (message: unknown) => {
    stdin.write(`${JSON.stringify(message)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { transport, handed, answers, send };
}

describe('the stdio transport', () => {
  it('refuses a request before initialize, lets a ping through, then hands everything over once initialize came', async () => {
    const w = wire();
    await w.transport.start();
    await w.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(w.answers).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request: tools/list before initialize (send initialize first)' } },
    ]);
    expect(w.handed).toEqual([]);
    await w.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await w.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await w.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    expect(w.handed.map((m) => (m as { id: number }).id)).toEqual([2, 3, 4]);
    expect(w.answers).toHaveLength(1);
  });

  it('opens the session on a 2026-era request, which carries its protocol version in _meta', async () => {
    const w = wire();
    await w.transport.start();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    await w.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    await w.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    expect(w.handed.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(w.answers).toEqual([]);
  });
});

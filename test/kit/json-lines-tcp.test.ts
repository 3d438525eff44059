import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectError, JsonLinesTcpClient } from '../../src/kit/json-lines/tcp.js';
import { PeerError } from '../../src/kit/json-lines/peer.js';

interface Echo {
  server: Server;
  port: number;
  connections: number;
  sockets: Set<Socket>;
  /** How the server answers one parsed request; return undefined to stay silent. */
  answer: (msg: Record<string, unknown>, socket: Socket) => string | undefined;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function echoServer(): Promise<Echo> {
  const echo = { connections: 0, sockets: new Set<Socket>() } as Echo;
  echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: msg.params })}\n`;
  echo.server = createServer((socket) => {
    echo.connections++;
    echo.sockets.add(socket);
    socket.on('close', () => echo.sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const out = echo.answer(JSON.parse(line), socket);
        if (out !== undefined) socket.write(out);
      }
    });
  });
  servers.push(echo.server);
  await new Promise<void>((r) => echo.server.listen(0, '127.0.0.1', r));
  echo.port = (echo.server.address() as { port: number }).port;
  return echo;
}

describe('JsonLinesTcpClient', () => {
  it('reuses one connection and correlates concurrent answers by id', async () => {
    const echo = await echoServer();
    const delayed: Array<() => void> = [];
    echo.answer = (msg, socket) => {
      delayed.push(() => socket.write(`${JSON.stringify({ id: msg.id, result: msg.params })}\n`));
      if (delayed.length === 3) delayed.reverse().forEach((f) => f());
      return undefined;
    };
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port: echo.port });
    const answers = await Promise.all([1, 2, 3].map((n) => client.request({ method: 'echo', params: n })));
    expect(answers.map((a) => a.result)).toEqual([1, 2, 3]);
    expect(echo.connections).toBe(1);
    client.close();
  });

  it('reports a refused connection as ConnectError naming host and port', async () => {
    const echo = await echoServer();
    const port = echo.port;
    await new Promise((r) => echo.server.close(r));
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port });
    const error = await client.request({ method: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('reconnects after the server drops the connection', async () => {
    const echo = await echoServer();
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port: echo.port });
    expect((await client.request({ params: 'a' })).result).toBe('a');
    echo.answer = (_msg, socket) => void socket.destroy();
    await expect(client.request({ params: 'b' })).rejects.toMatchObject({ code: 'CLOSED' });
    echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: msg.params })}\n`;
    expect((await client.request({ params: 'c' })).result).toBe('c');
    expect(echo.connections).toBe(2);
    client.close();
  });

  it('drops the connection after a request timeout so a late answer cannot be mistaken', async () => {
    const echo = await echoServer();
    echo.answer = () => undefined;
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port: echo.port, requestTimeoutMs: 50 });
    await expect(client.request({ params: 1 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(client.connected).toBe(false);
    echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: msg.params })}\n`;
    expect((await client.request({ params: 2 })).result).toBe(2);
    expect(echo.connections).toBe(2);
    client.close();
  });

  it('close(error) fails the pending request with that error, and the next request reconnects', async () => {
    const echo = await echoServer();
    echo.answer = () => undefined;
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port: echo.port });
    const pending = client.request({ params: 1 });
    await new Promise((r) => setTimeout(r, 20));
    const reason = new PeerError('BAD_MESSAGE', 'garbage from server');
    client.close(reason);
    await expect(pending).rejects.toBe(reason);
    echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: 'ok' })}\n`;
    expect((await client.request({})).result).toBe('ok');
    client.close();
  });

  it('drops a connection whose answer line is too long, then recovers', async () => {
    const echo = await echoServer();
    echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: 'x'.repeat(1000) })}`; // no newline: keeps growing
    const client = new JsonLinesTcpClient({ host: '127.0.0.1', port: echo.port, maxLineLength: 100 });
    await expect(client.request({})).rejects.toMatchObject({ code: 'TOO_LARGE' });
    echo.answer = (msg) => `${JSON.stringify({ id: msg.id, result: 'short' })}\n`;
    expect((await client.request({})).result).toBe('short');
    expect(echo.connections).toBe(2);
    client.close();
  });

  it('reads the greeting each connection starts with, matches id-less answers in order, and reopens a closed connection', async () => {
    const echo = await echoServer();
    const greet = (socket: Socket) => socket.write(`${JSON.stringify({ ok: true, ready: true, version: { number: '2.56.0' } })}\n`);
    echo.server.removeAllListeners('connection');
    echo.server.on('connection', (socket: Socket) => {
      echo.connections++;
      greet(socket);
      let pending = '';
      socket.on('data', (chunk) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (socket.writableEnded) return;
          const msg = JSON.parse(line) as { action: string; params?: unknown };
          if (msg.action === 'quit') {
            socket.end(`${JSON.stringify({ ok: true, message: 'disconnected' })}\n`);
            continue;
          }
          socket.write(`${JSON.stringify({ ok: true, echo: msg.params })}\n`);
        }
      });
    });
    const client = new JsonLinesTcpClient({
      host: '127.0.0.1',
      port: echo.port,
      fifo: true,
      isBanner: (m) => m.ready === true && !('id' in m),
    });
    const answers = await Promise.all([1, 2, 3].map((n) => client.request({ action: 'echo', params: n })));
    expect(answers.map((a) => a.echo)).toEqual([1, 2, 3]);
    expect(client.banner).toMatchObject({ version: { number: '2.56.0' } });
    expect(client.connections).toBe(1);
    expect(await client.request({ action: 'quit' })).toEqual({ ok: true, message: 'disconnected' });
    await vi.waitFor(() => expect(client.connected).toBe(false));
    expect((await client.request({ action: 'echo', params: 'again' })).echo).toBe('again');
    expect(client.connections).toBe(2);
    expect(echo.connections).toBe(2);
    client.close();
  });
});

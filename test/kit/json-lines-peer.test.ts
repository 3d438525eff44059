import { describe, expect, it } from 'vitest';
import { JsonLinesPeer, LineBuffer, PeerError } from '../../src/kit/json-lines/peer.js';

function peerWithLog(maxLineLength?: number) {
  const written: string[] = [];
  const strays: Array<[string, string]> = [];
  const peer = new JsonLinesPeer({ write: (l) => void written.push(l), onStray: (l, r) => void strays.push([l, r]), maxLineLength });
  return { peer, written, strays };
}

describe('LineBuffer', () => {
  it('joins lines split across chunks, drops \\r and blank lines', () => {
    const b = new LineBuffer();
    expect(b.push('{"a":')).toEqual([]);
    expect(b.push('1}\r\n\n{"b"')).toEqual(['{"a":1}']);
    expect(b.size).toBe(4);
    expect(b.push(':2}\n')).toEqual(['{"b":2}']);
  });
});

describe('JsonLinesPeer', () => {
  it('writes one line per request and resolves answers by id in any order', async () => {
    const { peer, written } = peerWithLog();
    const a = peer.request({ id: 1, method: 'a' });
    const b = peer.request({ id: 'two', method: 'b' });
    expect(written).toEqual(['{"id":1,"method":"a"}\n', '{"id":"two","method":"b"}\n']);
    peer.receive('{"id":"two","result":2}\n{"id":1,');
    expect(await b).toEqual({ id: 'two', result: 2 });
    expect(peer.inFlight).toBe(1);
    peer.receive('"result":1}\n');
    expect(await a).toEqual({ id: 1, result: 1 });
  });

  it('reports lines that are not JSON or carry no known id, and keeps waiting', async () => {
    const { peer, strays } = peerWithLog();
    const p = peer.request({ id: 7 });
    peer.receive('garbage\n{"id":8}\n{"result":1}\n');
    expect(strays.map(([, r]) => r)).toEqual(['not JSON', 'unknown id 8', 'no id']);
    expect(peer.inFlight).toBe(1);
    peer.receive('{"id":7}\n');
    await expect(p).resolves.toEqual({ id: 7 });
  });

  it('times out and aborts single requests', async () => {
    const { peer } = peerWithLog();
    await expect(peer.request({ id: 1 }, { timeoutMs: 10 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const ac = new AbortController();
    const p = peer.request({ id: 2 }, { signal: ac.signal });
    ac.abort('stop');
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(peer.inFlight).toBe(0);
  });

  it('closes itself on an over-long line, failing pending and later requests until reset', async () => {
    const { peer } = peerWithLog(16);
    const p = peer.request({ id: 1 });
    expect(peer.closed).toBe(false);
    peer.receive('x'.repeat(40));
    await expect(p).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(peer.closed).toBe(true);
    await expect(peer.request({ id: 2 })).rejects.toBeInstanceOf(PeerError);
    peer.reset(new PeerError('CLOSED', 'reconnected'));
    expect(peer.closed).toBe(false);
    const q = peer.request({ id: 3 });
    peer.receive('{"id":3}\n');
    await expect(q).resolves.toEqual({ id: 3 });
  });

  it('close(error) fails pending requests with that error', async () => {
    const { peer } = peerWithLog();
    const p = peer.request({ id: 1 });
    const reason = new Error('malformed answer');
    peer.close(reason);
    await expect(p).rejects.toBe(reason);
    await expect(peer.request({ id: 2 })).rejects.toBe(reason);
  });

  it('fifo: answers without an id settle the oldest request, ids still match by id', async () => {
    const written: string[] = [];
    const strays: string[] = [];
    const peer = new JsonLinesPeer({ write: (l) => void written.push(l), onStray: (_l, r) => void strays.push(r), fifo: true });
    const a = peer.request({ id: 1, action: 'a' });
    const b = peer.request({ id: 2, action: 'b' });
    const c = peer.request({ id: 3, action: 'c' });
    peer.receive('{"id":3,"ok":true}\n{"ok":"first"}\n{"ok":"second"}\n');
    expect(await c).toEqual({ id: 3, ok: true });
    expect(await a).toEqual({ ok: 'first' });
    expect(await b).toEqual({ ok: 'second' });
    peer.receive('{"ok":"nobody asked"}\n');
    expect(strays).toEqual(['no id']);
  });

  it('fifo: a request given up on keeps its place, so its late answer is not taken for the next one', async () => {
    const strays: string[] = [];
    const peer = new JsonLinesPeer({ write: () => undefined, onStray: (_l, r) => void strays.push(r), fifo: true });
    const ac = new AbortController();
    const slow = peer.request({ id: 1 }, { signal: ac.signal });
    const timed = peer.request({ id: 2 }, { timeoutMs: 5 });
    const next = peer.request({ id: 3 });
    ac.abort();
    await expect(slow).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(timed).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(peer.inFlight).toBe(3);
    peer.receive('{"late":1}\n{"late":2}\n{"mine":3}\n');
    expect(await next).toEqual({ mine: 3 });
    expect(strays).toEqual(['answer to request 1, given up on before', 'answer to request 2, given up on before']);
    expect(peer.inFlight).toBe(0);
  });

  it('keeps a greeting on the first line as the banner, never as an answer', async () => {
    const peer = new JsonLinesPeer({ write: () => undefined, fifo: true, isBanner: (m) => m.ready === true && !('id' in m) });
    const p = peer.request({ id: 1 });
    peer.receive('{"ok":true,"ready":true,"version":{"number":"2.56.0"}}\n{"ok":true,"pong":true}\n');
    expect(peer.banner).toMatchObject({ ready: true });
    expect(await p).toEqual({ ok: true, pong: true });
    const q = peer.request({ id: 2 });
    peer.receive('{"ok":true,"ready":true}\n');
    expect(await q).toEqual({ ok: true, ready: true });
  });
});

// The fair queue in front of the PoB workers, driven directly: who gets a free worker, which
// worker, and what is refused. The same rules under real calls are in pool.test.ts.
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../plugins/pob/live/scheduler.ts';

const limits = { total: 100, perClient: 50 };

/** Records grants in order; `job` resolves to its slot. */
function recorder(queue: FairQueue) {
  const order: string[] = [];
  const submit = (label: string, client: string, key?: string, extra: { changesKey?: boolean; signal?: AbortSignal } = {}) => {
    const p = queue.acquire({ client, key, changesKey: extra.changesKey }, extra.signal).then((slot) => {
      order.push(label);
      return slot;
    });
    p.catch(() => undefined);
    return p;
  };
  return { order, submit };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('FairQueue', () => {
  it("serves another client's call right after the calculation in progress, never behind a backlog", async () => {
    const queue = new FairQueue(1, limits);
    const { order, submit } = recorder(queue);
    const first = await submit('a0', 'A');
    for (let i = 1; i <= 10; i++) void submit(`a${i}`, 'A');
    const b = submit('b0', 'B');
    await tick();
    queue.release(first, undefined);
    expect(await b).toBe(0);
    expect(order).toEqual(['a0', 'b0']);
    // With B gone quiet, A's backlog runs on in order.
    for (let i = 0; i < 3; i++) {
      queue.release(0, undefined);
      await tick();
    }
    expect(order).toEqual(['a0', 'b0', 'a1', 'a2', 'a3']);
  });

  it('alternates between two backlogged clients', async () => {
    const queue = new FairQueue(1, limits);
    const { order, submit } = recorder(queue);
    await submit('a0', 'A');
    for (let i = 1; i <= 3; i++) void submit(`a${i}`, 'A');
    for (let i = 0; i < 3; i++) void submit(`b${i}`, 'B');
    for (let i = 0; i < 6; i++) {
      queue.release(0, undefined);
      await tick();
    }
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('routes a call to the worker holding its build, and waits for that worker rather than load the build twice', async () => {
    const queue = new FairQueue(2, limits);
    const { order, submit } = recorder(queue);
    const s0 = await submit('x', 'A', 'build-x');
    const s1 = await submit('y', 'B', 'build-y');
    expect([s0, s1]).toEqual([0, 1]);
    queue.release(s1, 'build-y');
    // Worker 0 is busy holding build-x: a call for build-x waits for it, though worker 1 is free.
    const again = submit('x2', 'C', 'build-x');
    const other = submit('z', 'D', 'build-z');
    await tick();
    expect(order).toEqual(['x', 'y', 'z']);
    expect(await other).toBe(1);
    queue.release(s0, 'build-x');
    expect(await again).toBe(0);
  });

  it('prefers, within one round, the call whose build a free worker already holds', async () => {
    const queue = new FairQueue(1, limits);
    const { order, submit } = recorder(queue);
    const busy = await submit('first', 'Z', 'k1');
    void submit('c1-k2', 'C1', 'k2');
    void submit('c2-k1', 'C2', 'k1');
    void submit('c3-k2', 'C3', 'k2');
    queue.release(busy, 'k1');
    await tick();
    expect(order.at(-1)).toBe('c2-k1');
    queue.release(0, 'k1');
    await tick();
    queue.release(0, 'k2');
    await tick();
    queue.release(0, 'k2');
    await tick();
    expect(order).toEqual(['first', 'c2-k1', 'c1-k2', 'c3-k2']);
  });

  it('does not route to a worker whose build is being changed', async () => {
    const queue = new FairQueue(2, limits);
    const { submit } = recorder(queue);
    const editing = await submit('edit', 'A', 'k', { changesKey: true });
    expect(editing).toBe(0);
    // The edit turns k into another build: a read of k takes the free worker and loads k there.
    expect(await submit('read', 'B', 'k')).toBe(1);
  });

  it('refuses past the per-client and total bounds, saying to retry', async () => {
    const queue = new FairQueue(1, { total: 3, perClient: 2 });
    const { submit } = recorder(queue);
    await submit('running', 'A');
    void submit('a1', 'A');
    void submit('a2', 'A');
    await expect(submit('a3', 'A')).rejects.toMatchObject({
      code: 'BUSY',
      message: 'PoB is busy: 2 calls of this client are already waiting for a worker (at most 2); retry in a moment',
    });
    void submit('b1', 'B');
    await expect(submit('c1', 'C')).rejects.toThrow(/PoB is busy: 3 calls are waiting for its 1 workers \(at most 3\); retry in a moment/);
    expect(queue.queued).toBe(3);
  });

  it('drops a call whose signal aborts while it waits, and frees its place', async () => {
    const queue = new FairQueue(1, { total: 10, perClient: 1 });
    const { order, submit } = recorder(queue);
    await submit('running', 'A');
    const abort = new AbortController();
    const waiting = submit('gone', 'B', undefined, { signal: abort.signal });
    abort.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(queue.queued).toBe(0);
    const next = submit('b-again', 'B');
    queue.release(0, undefined);
    expect(await next).toBe(0);
    expect(order).toEqual(['running', 'b-again']);
  });

  it('gives a pinned call its worker as soon as it is free, before anyone waiting', async () => {
    const queue = new FairQueue(2, limits);
    const { order } = recorder(queue);
    const a = await queue.acquire({ client: 'A' });
    await queue.acquire({ client: 'B' });
    const waiting = queue.acquire({ client: 'C' }).then(() => order.push('C'));
    const pinned = queue.acquire({ client: 'stop', slot: a }).then(() => order.push('stop'));
    queue.release(a, undefined);
    await pinned;
    expect(order).toEqual(['stop']);
    queue.release(a, undefined);
    await waiting;
    expect(order).toEqual(['stop', 'C']);
  });

  it('fails everything waiting, and every later call, once closed', async () => {
    const queue = new FairQueue(1, limits);
    await queue.acquire({ client: 'A' });
    const waiting = queue.acquire({ client: 'B' });
    queue.close(new Error('shut down'));
    await expect(waiting).rejects.toThrow('shut down');
    await expect(queue.acquire({ client: 'C' })).rejects.toThrow('shut down');
  });
});

// The ids of what a replica holds for a 2026-era client (a task, a paused call) say where it lives,
// and only to the caller they were handed to: another replica's, this replica's from before it
// restarted, and one never handed out (or handed to another caller, or sealed with another key)
// are told apart; a task lost with its replica is answered as failed, saying so, not as unknown.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HeldIds } from '../../src/server/held-ids.js';
import { TaskStore } from '../../src/server/tasks/store.js';
import { InputBroker } from '../../src/registry/asks.js';

const key = randomBytes(32);

describe('held ids', () => {
  it('name their replica, and tell here, another replica, an earlier run and a forgery apart', () => {
    const [r1, r2, r1Again] = [new HeldIds(key, 'r1'), new HeldIds(key, 'r2'), new HeldIds(key, 'r1')];
    const id = r1.mint('client:a');
    expect(id).toMatch(/^r1\.[0-9a-f]{8}\.[0-9a-z]+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{16}$/);
    expect(r1.holder(id, 'client:a')).toEqual({ where: 'here' });
    expect(r2.holder(id, 'client:a')).toEqual({ where: 'replica', replica: 'r1', createdAt: expect.any(Number) });
    expect(r1Again.holder(id, 'client:a')).toEqual({ where: 'restarted', replica: 'r1', createdAt: expect.any(Number) });
    // Not handed to this caller, altered, or sealed with another key: nothing at all.
    expect(r2.holder(id, 'client:b')).toBeUndefined();
    expect(r2.holder(id.replace(/^r1\./, 'r3.'), 'client:a')).toBeUndefined();
    expect(new HeldIds(randomBytes(32), 'r2').holder(id, 'client:a')).toBeUndefined();
    expect(r2.holder(crypto.randomUUID(), 'client:a')).toBeUndefined();
    expect(r2.holder(`r1.${'x'.repeat(500)}`, 'client:a')).toBeUndefined();
  });

  it('without a replica id, still tell a restarted host from a forgery', () => {
    const id = new HeldIds(key).mint('local');
    expect(id.split('.')).toHaveLength(4);
    expect(new HeldIds(key).holder(id, 'local')).toEqual({ where: 'restarted', createdAt: expect.any(Number) });
    expect(new HeldIds(key, 'r1').holder(id, 'local')).toBeUndefined();
  });
});

describe('a task lost with its replica', () => {
  const running = () => ({ outcome: new Promise<never>(() => undefined), broker: new InputBroker(), controller: new AbortController() });

  it('is answered as failed, saying why, to its owner only; cancelling it is harmless', async () => {
    const before = new TaskStore({ ids: new HeldIds(key, 'r1') });
    const id = before.start(running(), 'client:a').taskId as string;
    // The same replica, restarted: it no longer holds the task.
    const after = new TaskStore({ ids: new HeldIds(key, 'r1') });
    expect(await after.get(id, 'client:a')).toMatchObject({
      taskId: id,
      status: 'failed',
      error: { code: -32603, message: 'replica r1 restarted since it started this task; what it was doing is lost: call the tool again' },
    });
    // Another replica, reached because r1 could not be.
    const other = new TaskStore({ ids: new HeldIds(key, 'r2') });
    expect(((await other.get(id, 'client:a')) as { error: { message: string } }).error.message).toBe(
      'replica r1, which ran this task, cannot be reached; what it was doing is lost: call the tool again',
    );
    expect(await other.cancel(id, 'client:a')).toBe(true);
    // For any other caller it is what an id that never existed is.
    expect(await other.get(id, 'client:b')).toBeUndefined();
    expect(await other.cancel(id, 'client:b')).toBe(false);
    expect(await other.update(id, {}, 'client:b')).toBe(false);
    // The replica that holds it answers as ever.
    expect(await before.get(id, 'client:a')).toMatchObject({ status: 'working' });
    before.close();
  });
});

// Calls paused for their 2026-era clients (an elicitation waiting for its answer), bounded per
// caller: one caller's thousand paused calls drop only its own oldest, never another caller's call
// whose person is answering the form; the host-wide bound takes from the caller holding the most.
import { describe, expect, it } from 'vitest';
import { DetachedRun, PausedCalls } from '../../src/server/paused-calls.js';

/** A call that waits until it is cancelled, as one waiting for its client's answer does. */
function waiting() {
  const ended: { why?: string } = {};
  const run = new DetachedRun<unknown>(
    (signal) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          ended.why = (signal.reason as Error).message;
          reject(signal.reason);
        }),
      ),
    () => undefined,
  );
  return { run, ended };
}

describe('paused calls', () => {
  it("keep another caller's call while one caller pauses a thousand", async () => {
    const paused = new PausedCalls({ max: 1000, perCaller: 100 });
    const theirs = waiting();
    const theirId = paused.pause(theirs.run, 'client:b');
    const mine = Array.from({ length: 1000 }, () => waiting());
    const ids = mine.map((m) => paused.pause(m.run, 'client:a'));
    await new Promise((r) => setImmediate(r));
    expect(paused.size).toBe(101);
    expect(mine[0].ended.why).toBe('cancelled: this client has more than 100 calls waiting for its answers');
    expect(mine.filter((m) => m.ended.why !== undefined)).toHaveLength(900);
    expect(paused.take(ids[999])).toBe(mine[999].run);
    // b's person answers the form: the call is still there to pick up.
    expect(theirs.ended.why).toBeUndefined();
    expect(paused.take(theirId)).toBe(theirs.run);
    paused.close();
  });

  it('past the host-wide bound, take from the caller holding the most', async () => {
    const paused = new PausedCalls({ max: 10, perCaller: 8 });
    const b = waiting();
    paused.pause(b.run, 'client:b');
    const a = Array.from({ length: 8 }, () => waiting());
    for (const m of a) paused.pause(m.run, 'client:a');
    const c = waiting();
    paused.pause(c.run, 'client:c');
    // Full (10): the next one, from c, drops a's oldest.
    paused.pause(waiting().run, 'client:c');
    await new Promise((r) => setImmediate(r));
    expect(a[0].ended.why).toBe('cancelled: more than 10 calls were waiting for their clients');
    expect(b.ended.why).toBeUndefined();
    expect(c.ended.why).toBeUndefined();
    paused.close();
  });
});

// The shared deadline timer and shutdown hooks of bounded calls (src/registry/call-timers.ts): a
// later call with a shorter deadline still ends on time, an ended call's deadline never fires, and a
// shutdown reaches every call waiting on it but none that stopped waiting.
import { describe, expect, it } from 'vitest';
import { deadline, whenAborted } from '../../src/registry/call-timers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadline', () => {
  it('fires each deadline at its own time, whatever order they were set in', async () => {
    const started = Date.now();
    const fired: Array<[string, number]> = [];
    deadline(300, () => fired.push(['long', Date.now() - started]));
    deadline(60, () => fired.push(['short', Date.now() - started]));
    const stop = deadline(120, () => fired.push(['stopped', Date.now() - started]));
    stop();
    await sleep(400);
    expect(fired.map(([name]) => name)).toEqual(['short', 'long']);
    const [[, short], [, long]] = fired;
    // Never early; the short one not held back to the long one's time (the order says so).
    expect(short).toBeGreaterThanOrEqual(59);
    expect(long).toBeGreaterThanOrEqual(299);
  });

  it('keeps firing deadlines set after the timer went idle', async () => {
    const fired: string[] = [];
    deadline(20, () => fired.push('first'))();
    await sleep(40);
    deadline(20, () => fired.push('second'));
    await sleep(80);
    expect(fired).toEqual(['second']);
  });
});

describe('whenAborted', () => {
  it('runs every waiting hook once on abort, and none that stopped waiting', () => {
    const controller = new AbortController();
    const ran: string[] = [];
    whenAborted(controller.signal, () => ran.push('a'));
    const stop = whenAborted(controller.signal, () => ran.push('b'));
    whenAborted(controller.signal, () => ran.push('c'));
    stop();
    controller.abort(new Error('shutting down'));
    controller.abort(new Error('again'));
    expect(ran).toEqual(['a', 'c']);
  });
});

// Snapshot evaluation in worker threads (issue 14 item 5): a heavy call never stalls the others,
// and cancel and timeout stop a running evaluation. The threads run the compiled worker, so this
// file uses the build (`npm test` builds first; after changing the plugin, `npm run build`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPool } from '../../../dist/plugins/exile/snapshot/serve/pool.js';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { componentOf, fixtureText, rawFixture } from './fixture.ts';

const dir = tempDir('mcphost-exile-pool-');
// 300³ predicate evaluations: far longer than any budget below.
const HEAVY = {
  from: 'Entities',
  where: 'Entities.Any(a => Entities.Any(b => Entities.Any(c => c.Id == a.Id + b.Id + Id + 1000000)))',
  take: 1,
  skip: 0,
};
const ctx = (signal = new AbortController().signal) => ({ signal });
const settled = (p: Promise<unknown>) => {
  const state = { done: false };
  void p.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};

let pool: ExileProvider;
let curHp: number;

beforeAll(async () => {
  curHp = componentOf(rawFixture().roots.Player, 'Life')!.CurHP;
  pool = (await openPool(dir.write('state.json', fixtureText()), { timeBudgetMs: 60_000, workers: 2 })) as ExileProvider;
});
afterAll(() => pool?.close());

describe('snapshot evaluation threads', () => {
  it('answers another call while a heavy one runs', async () => {
    const abort = new AbortController();
    const heavy = pool.query(HEAVY, ctx(abort.signal));
    const heavyState = settled(heavy);
    const light = await pool.eval({ expr: 'Player.GetComponent<Life>().CurHP', depth: 2 }, ctx());
    expect(light).toBe(curHp);
    expect(heavyState.done).toBe(false);
    abort.abort(new Error('enough'));
    await expect(heavy).rejects.toThrow('enough');
  });

  it('a tool error crosses the thread with its code, message and data', async () => {
    await expect(pool.eval({ expr: 'Player.GetComponent<Life>().CurHP)', depth: 2 }, ctx())).rejects.toMatchObject({
      code: 'EXPR_SYNTAX',
      message: expect.stringMatching(/unexpected token '\)' at 33/),
      data: { position: 33 },
    });
  });

  it('a cancel stops the running evaluation at once and frees its thread', async () => {
    const abort = new AbortController();
    const heavy = pool.query(HEAVY, ctx(abort.signal));
    const second = pool.query(HEAVY, ctx(abort.signal));
    // Both threads are busy now; a third call waits for one of them.
    const waiting = pool.eval({ expr: 'Player.Id', depth: 0 }, ctx());
    const waitingState = settled(waiting);
    expect(waitingState.done).toBe(false);
    abort.abort(new Error('cancelled by the client'));
    await expect(heavy).rejects.toThrow('cancelled by the client');
    await expect(second).rejects.toThrow('cancelled by the client');
    expect(typeof (await waiting)).toBe('number');
  });

  it('a call cancelled while it waits for a thread never runs', async () => {
    const stop = new AbortController();
    const busy = [pool.query(HEAVY, ctx(stop.signal)), pool.query(HEAVY, ctx(stop.signal))];
    const abort = new AbortController();
    const queued = pool.eval({ expr: 'Player.Id', depth: 0 }, ctx(abort.signal));
    abort.abort(new Error('gave up'));
    await expect(queued).rejects.toThrow('gave up');
    stop.abort(new Error('done'));
    await Promise.allSettled(busy);
  });

  it('a file that is not a snapshot is refused with its name; close() ends the running and the waiting calls', async () => {
    const bad = dir.write('bad.json', '{"format":"nope","version":1}');
    await expect(openPool(bad)).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining(bad) });
    const running = [1, 2].map(() => expect(pool.query(HEAVY, ctx())).rejects.toThrow(/closed/));
    const queued = expect(pool.eval({ expr: 'Player.Id', depth: 0 }, ctx())).rejects.toThrow(/closed/);
    await pool.close();
    await Promise.all([...running, queued]);
    await expect(pool.eval({ expr: 'Player.Id', depth: 0 }, ctx())).rejects.toThrow(/closed/);
  });
});

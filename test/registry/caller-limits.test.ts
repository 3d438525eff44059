// The token bucket and the concurrency cap of a named client, on a test clock: refused at once with
// the limit and the seconds to wait, refilled as time passes, and all or nothing across the client's
// own limits and its tools'.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { clientAccess } from '../../src/registry/access.js';
import { CallerLimits } from '../../src/registry/caller-limits.js';
import { HostClient } from '../../src/registry/clients.js';
import { Registry } from '../../src/registry/registry.js';
import { inlineBackend } from '../helpers/inline-backend.js';

const clock = () => {
  const c = { t: 0, now: () => c.t };
  return c;
};

describe('CallerLimits', () => {
  it('lets a burst through, refuses the next with when to retry, and refills with time', () => {
    const c = clock();
    const limits = new CallerLimits('b', { rate: { perMinute: 6, burst: 2 }, tools: {} }, c.now);
    for (let i = 0; i < 2; i++) {
      const a = limits.admit('x');
      if ('release' in a) a.release();
      else throw new Error('refused too early');
    }
    const refused = limits.admit('x');
    expect(refused).toEqual({
      refused: {
        limit: 'http.clients.b.limits.rate (6/min, burst 2)',
        retryAfter: 10,
        message: 'client b is past http.clients.b.limits.rate (6/min, burst 2) for x: retry after 10 s',
      },
    });
    c.t = 4_000;
    expect(limits.peek('x')?.retryAfter).toBe(6);
    c.t = 10_000;
    expect(limits.peek('x')).toBeUndefined();
    expect('release' in limits.admit('x')).toBe(true);
  });

  it('caps calls running at once, for the client and per tool, taking nothing from a refused call', () => {
    const c = clock();
    const limits = new CallerLimits(
      'b',
      { concurrency: 2, tools: { 'pob_*': { concurrency: 1, rate: { perMinute: 60, burst: 5 } } } },
      c.now,
    );
    const first = limits.admit('pob_calc');
    expect('release' in first).toBe(true);
    expect(limits.admit('pob_calc')).toMatchObject({
      refused: { limit: 'http.clients.b.limits.tools.pob_*.concurrency (1 at once)', retryAfter: 1 },
    });
    // Another tool of the glob has a cap of its own.
    const other = limits.admit('pob_load');
    expect('release' in other).toBe(true);
    expect(limits.admit('godot_search')).toMatchObject({ refused: { limit: 'http.clients.b.limits.concurrency (2 at once)' } });
    if ('release' in first) first.release();
    if ('release' in other) other.release();
    // Four refusals above took no token from pob_calc's bucket: four of its five are left.
    for (let i = 0; i < 4; i++) {
      const a = limits.admit('pob_calc');
      if (!('release' in a)) throw new Error(`refused at ${i}`);
      a.release();
    }
    expect(limits.admit('pob_calc')).toMatchObject({ refused: { limit: 'http.clients.b.limits.tools.pob_*.rate (60/min, burst 5)' } });
  });
});

describe('a call past its limits inside the registry', () => {
  it('is refused as the JSON-RPC error -32029 with the limit and retryAfter (what a batch or an inner call gets)', async () => {
    const backend = defineBackend({
      name: 'probe',
      version: '1.0.0',
      description: 'x',
      tools: [{ name: 'quick', description: 'q', input: z.object({}), handler: () => 'quick' }],
    });
    const registry = await Registry.create([inlineBackend('probe', backend)], {
      logger: silentLogger,
      timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
    });
    const access = clientAccess(namedClientsSchema.parse({ b: { token: 'x', limits: { rate: { perMinute: 1, burst: 1 } } } }));
    const identity = { kind: 'token', subject: 'b', client: 'b' } as const;
    const client = new HostClient('http', { identity, access: access(identity) });
    expect((await registry.callTool('probe_quick', {}, { client })).refused).toBeUndefined();
    const second = await registry.callTool('probe_quick', {}, { client });
    expect(second.error?.kind).toBe('limit');
    expect(second.refused).toMatchObject({
      code: -32029,
      data: { client: 'b', retryAfter: 60, limit: 'http.clients.b.limits.rate (1/min, burst 1)' },
    });
    await registry.close();
  });
});

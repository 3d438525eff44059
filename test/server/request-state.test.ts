// The requestState seal between replicas: with one MCPHOST_STATE_KEY a state sealed by one process
// opens in another (a 2026-era retry that nginx sends elsewhere), without it it does not, and a key
// too short is refused at start with what to give instead of being replaced in silence.
import { randomBytes } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createStateSeal } from '../../src/server/request-state.js';

/** What the seal binds to: the method and the caller (an anonymous one here). */
const ctx = { mcpReq: { method: 'tools/call' } } as unknown as ServerContext;

describe('MCPHOST_STATE_KEY', () => {
  it('lets a state sealed by one replica open on another that holds the same key', async () => {
    const env = { MCPHOST_STATE_KEY: randomBytes(32).toString('hex') };
    const [a, b] = [createStateSeal(env), createStateSeal(env)];
    const sealed = await a.mint({ k: 'p', id: 'call-1' }, ctx);
    expect(await b.verify(sealed, ctx)).toEqual({ k: 'p', id: 'call-1' });
    await expect(createStateSeal({}).verify(sealed, ctx)).rejects.toThrow();
  });

  it('refuses a key shorter than 32 bytes, naming the variable and the fix', () => {
    expect(() => createStateSeal({ MCPHOST_STATE_KEY: 'short' })).toThrow(
      'MCPHOST_STATE_KEY is 5 bytes; give one of 32 bytes or more (e.g. openssl rand -hex 32), the same on every replica, or unset it',
    );
  });
});

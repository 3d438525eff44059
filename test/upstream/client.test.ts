// The upstream client on its own (src/kit/mcp/client.ts): restart backoff of a stdio child,
// its reset after a healthy period, and the helpers the mirror uses.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { UpstreamClient } from '../../src/kit/mcp/client.js';
import { globMatcher } from '../../src/kit/glob.js';
import { templateVariables } from '../../src/kit/mcp/mirror.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, alive, waitFor } from './helpers.js';

const clients: UpstreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(args: string[], backoff: { initialMs: number; maxMs: number; resetAfterMs: number }, env: Record<string, string> = {}) {
  const c = new UpstreamClient({
    name: 'up',
    target: { kind: 'stdio', command: process.execPath, args, env },
    logger: silentLogger,
    backoff,
  });
  clients.push(c);
  return c;
}

/** Waits until the client may try again, then lets it try once. */
async function nextAttempt(c: UpstreamClient): Promise<string> {
  await waitFor(() => (c.status().retryInMs ?? 0) === 0, 'the backoff to pass', 5_000);
  return c.connect().then(
    () => 'connected',
    (e: Error) => e.message,
  );
}

describe('restart backoff of a stdio server', () => {
  it('doubles the delay after each failed start, up to the cap, and refuses calls meanwhile', async () => {
    const c = client(['-e', 'console.error("no config"); process.exit(1)'], { initialMs: 200, maxMs: 800, resetAfterMs: 60_000 });
    await expect(c.connect()).rejects.toThrow(/^upstream up unavailable: `.*` exited with code 1: no config$/);
    const first = c.status().retryInMs!;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(200);
    await expect(c.connect()).rejects.toThrow(/exited with code 1: no config; next restart attempt in 1 s$/);
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await nextAttempt(c)).toMatch(/exited with code 1/);
      delays.push(c.status().retryInMs!);
    }
    expect(delays[0]).toBeGreaterThan(200);
    expect(delays[0]).toBeLessThanOrEqual(400);
    expect(delays[1]).toBeGreaterThan(400);
    expect(delays[1]).toBeLessThanOrEqual(800);
    expect(delays[2]).toBeGreaterThan(400);
    expect(delays[2]).toBeLessThanOrEqual(800);
    expect(c.status()).toMatchObject({ state: 'down', restarts: 0 });
  });

  it('starts again from the first delay once the server ran long enough', async () => {
    const tmp = tempDir();
    const c = client([FIXTURE_SERVER], { initialMs: 100, maxMs: 10_000, resetAfterMs: 300 }, { FIXTURE_JOURNAL: path.join(tmp.dir, 'j') });
    await c.connect();
    const pid = () => c.status().pid!;
    const kill = async () => {
      const p = pid();
      process.kill(p, 'SIGKILL');
      await waitFor(() => c.state === 'down' && !alive(p), 'the client to see the exit');
    };
    // Two quick crashes: the second restart waits twice as long.
    await kill();
    expect(c.status().retryInMs!).toBeLessThanOrEqual(100);
    expect(await nextAttempt(c)).toBe('connected');
    await kill();
    expect(c.status().retryInMs!).toBeGreaterThan(100);
    expect(await nextAttempt(c)).toBe('connected');
    // Healthy for longer than resetAfterMs: back to the first delay.
    const upSince = performance.now();
    await waitFor(() => performance.now() - upSince > 350, 'the server to have run past resetAfterMs');
    await kill();
    expect(c.status().retryInMs!).toBeLessThanOrEqual(100);
    expect(await nextAttempt(c)).toBe('connected');
    expect(c.status()).toMatchObject({ state: 'connected', restarts: 3 });
  });
});

describe('mirror helpers', () => {
  it('matches tool names against names and * globs', () => {
    const match = globMatcher(['echo', 'get-*', '*.v2']);
    expect(['echo', 'get-sum', 'get-', 'a.v2'].every(match)).toBe(true);
    expect(['echo2', 'xget-sum', 'av2'].some(match)).toBe(false);
  });

  it('reads the variable names of RFC 6570 templates', () => {
    expect(templateVariables('godot://class/{name}')).toEqual(['name']);
    expect(templateVariables('a://{+path}{?q,kind}{#frag}/{list*}/{short:3}')).toEqual(['path', 'q', 'kind', 'frag', 'list', 'short']);
  });
});

describe('progress read in the same chunk as the result', () => {
  it('reaches the caller, every step of it, before the result', async () => {
    const c = client([path.join(path.dirname(FIXTURE_SERVER), 'one-chunk-server.mjs')], {
      initialMs: 200,
      maxMs: 800,
      resetAfterMs: 60_000,
    });
    for (let call = 0; call < 5; call++) {
      const seen: number[] = [];
      const result = await c.request((sdk) =>
        sdk.callTool({ name: 'steps', arguments: {} }, { onprogress: (p) => void seen.push(p.progress) }),
      );
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(seen).toEqual([1, 2, 3]);
    }
  });
});

// SIGTERM on `mcphost serve --transport http` (the real binary) while calls are in flight, from
// SDK clients of both eras: the calls that end within the shutdown deadline are answered with
// their results, one that would run past it is answered with an error, and the host exits 0 within
// the deadline, as nginx's graceful stop drains its requests.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { startHttp } from '../helpers/mcp.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir('mcphost-drain-');
const SHUTDOWN_MS = 4_000;
const SLACK_MS = 1_500;

type Settled = { ok: true; text: string } | { ok: false; message: string };
const settle = (c: Client, steps: number): Promise<Settled> =>
  c.callTool({ name: 'kitchen_slow', arguments: { steps, stepMs: 100 } }).then(
    (r) => ({ ok: true, text: (r.content as Array<{ text: string }>)[0].text }),
    (e: Error) => ({ ok: false, message: e.message }),
  );

describe('SIGTERM while HTTP requests are in flight', () => {
  it('finishes the calls that end within the deadline, answers the one that would not, and exits 0', { timeout: 60_000 }, async () => {
    const config = t.write(
      'drain.json',
      JSON.stringify({ plugins: { kitchen: { module: path.join(FIXTURES, 'kitchen/index.js') } }, timeouts: { shutdownMs: SHUTDOWN_MS } }),
    );
    const server = await startHttp(['--config', config], { cwd: t.dir, env: isolatedEnv(t.dir) });
    const [legacy, modern] = await Promise.all([server.connect('legacy'), server.connect('modern')]);
    // Warm: the backend is started, so the calls below are only their own steps.
    await settle(modern, 1);
    const calls = [settle(legacy, 10), settle(modern, 10), settle(modern, 12), settle(legacy, 300), settle(modern, 300)];
    await new Promise((r) => setTimeout(r, 300));
    const stopAt = Date.now();
    server.child.kill('SIGTERM');
    const [a, b, c, long, longModern] = await Promise.all(calls);
    expect([a, b, c]).toEqual([
      { ok: true, text: 'done 10' },
      { ok: true, text: 'done 10' },
      { ok: true, text: 'done 12' },
    ]);
    // Past the deadline (shutdownMs less what the backends' stop keeps): an answer, not a dropped connection.
    const why = 'mcphost is shutting down: the request did not finish within 3500 ms';
    expect(long).toEqual({ ok: false, message: why });
    expect(longModern.ok).toBe(false);
    expect((longModern as { message: string }).message).toContain(why);
    const result = await server.child;
    expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
    expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + SLACK_MS);
  });
});

// Upstreams never hold the host back (issue 14, item 3): with a stdio server that never answers, or
// an HTTP server that accepts the connection and never answers, mcphost answers `initialize` and
// binds its HTTP port at once; the connect runs in the background and fails at its connectTimeoutMs
// (once, not once per listing); a server that comes up late has its tools announced with
// tools/list_changed. The hostile upstreams are real: a child process and a TCP listener.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openHost } from '../../src/app/open.js';
import { serveOnHttp } from '../../src/server/http.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess, serveInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { alive, fixtureEntry, textOf, waitFor, writeConfig } from './helpers.js';

/** Well under any connect timeout below: what "at once" means on a loaded 2-core machine. */
const PROMPT_MS = 2_500;
/** How late past its connectTimeoutMs a connect may fail (timer and event-loop latency). */
const TOLERANCE_MS = 600;

/** A stdio server that never answers and ignores its stdin closing. */
const mute = (connectTimeoutMs: number) => ({
  command: process.execPath,
  args: ['-e', 'process.stdin.resume(); console.error(`mute ${process.pid}`); setInterval(() => {}, 1e9)'],
  connectTimeoutMs,
});

/** Accepts TCP connections, reads what is sent, and never answers. */
async function tarpit(): Promise<{ url: string; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server, sockets };
}

const tarpits: Array<Awaited<ReturnType<typeof tarpit>>> = [];
afterAll(async () => {
  for (const t of tarpits) {
    for (const s of t.sockets) s.destroy();
    await new Promise((resolve) => t.server.close(resolve));
  }
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

describe('a stdio server that never answers', () => {
  it('does not delay initialize; its connect fails at connectTimeoutMs, and it is stopped', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { mute: mute(5_000), fx: fixtureEntry(journal) } });
    const { value: session, ms } = await timed(() => serveInProcess({ cwd: tmp.dir }));
    try {
      expect(ms).toBeLessThan(PROMPT_MS);
      // The other upstream comes up on its own and is announced.
      await waitFor(async () => (await session.client.listTools()).tools.some((t) => t.name === 'fx_echo'), 'fx’s tools');
      const { value: call, ms: callMs } = await timed(() =>
        session.client.callTool({ name: 'mute_anything', arguments: {} }).catch((e) => e),
      );
      // A call of its tool waits for its connect, and fails with the reason when that fails.
      expect(call.isError ? textOf(call) : String(call.message)).toMatch(
        /upstream mute unavailable: .*did not answer initialize within 5000 ms/,
      );
      expect(callMs).toBeLessThan(5_000 + TOLERANCE_MS + PROMPT_MS);
      const health = await waitFor(async () => {
        const h = (await session.registry.health()).mute;
        return h.ok === false && /did not answer initialize within 5000 ms/.test(h.message ?? '') ? h : undefined;
      }, 'mute to be reported down');
      expect(health.message).toMatch(/^upstream mute is down: `.*` did not answer initialize within 5000 ms/);
    } finally {
      await session.close();
    }
  });

  it('makes a one-shot call fail at connectTimeoutMs, once, naming the command', async () => {
    const tmp = tempDir();
    writeConfig(tmp.dir, { servers: { mute: mute(1_500) } });
    const { value: outcome, ms } = await timed(() => callInProcess({ cwd: tmp.dir, plugin: 'mute', tool: 'anything' }).catch((e) => e));
    expect(String(outcome.message)).toMatch(/^upstream mute unavailable: `.*` did not answer initialize within 1500 ms/);
    expect(ms).toBeGreaterThanOrEqual(1_500);
    expect(ms).toBeLessThan(1_500 + TOLERANCE_MS);
  });

  it('is stopped with mcphost even while its handshake is still pending', async () => {
    const tmp = tempDir();
    writeConfig(tmp.dir, { servers: { mute: mute(60_000) } });
    const logs: string[] = [];
    const session = await serveInProcess({
      cwd: tmp.dir,
      writeLog: (l) => logs.push(l),
      env: { ...isolatedEnv(tmp.dir), MCPHOST_LOG_LEVEL: 'debug' },
    });
    const pid = Number(await waitFor(() => /mute (\d+)/.exec(logs.join('\n'))?.[1], 'the mute server to start'));
    const { ms } = await timed(() => session.close());
    expect(alive(pid)).toBe(false);
    expect(ms).toBeLessThan(PROMPT_MS + 1_000); // stdin closed, then SIGTERM after 0.5 s: not the 60 s timeout
  });
});

describe('an HTTP server that accepts the connection and never answers', () => {
  it('does not delay initialize nor the HTTP bind; a call fails at connectTimeoutMs, once', async () => {
    const pit = await tarpit();
    tarpits.push(pit);
    const tmp = tempDir();
    writeConfig(tmp.dir, { servers: { pit: { url: pit.url, connectTimeoutMs: 2_000 } } });

    const { value: session, ms: initMs } = await timed(() => serveInProcess({ cwd: tmp.dir }));
    expect(initMs).toBeLessThan(PROMPT_MS);
    await session.close();

    const { value: bound, ms: bindMs } = await timed(async () => {
      const { registry, logger, resolved } = await openHost({
        cwd: tmp.dir,
        env: isolatedEnv(tmp.dir),
        serving: true,
        writeLog: () => undefined,
      });
      const http = await serveOnHttp(registry, { name: 'mcphost', version: 'test' }, { ...resolved.config.http, port: 0 }, logger);
      return { registry, http };
    });
    expect(bindMs).toBeLessThan(PROMPT_MS);
    await bound.http.close();
    await bound.registry.close();

    const { value: outcome, ms } = await timed(() => callInProcess({ cwd: tmp.dir, plugin: 'pit', tool: 'anything' }).catch((e) => e));
    expect(String(outcome.message)).toBe(`upstream pit unavailable: ${pit.url} did not answer initialize within 2000 ms`);
    expect(ms).toBeGreaterThanOrEqual(2_000);
    expect(ms).toBeLessThan(2_000 + TOLERANCE_MS);
  });
});

describe('a server that comes up after mcphost', () => {
  // The fixture answers nothing until the test writes `gate` (FIXTURE_START_FILE), however long
  // that takes, so the first listing cannot hold its tools and the bound alone ends the wait.
  it('past timeouts.firstListMs, is listed without its tools, then announced with tools/list_changed once it answers', async () => {
    const tmp = tempDir();
    const gate = path.join(tmp.dir, 'go');
    writeConfig(tmp.dir, {
      timeouts: { firstListMs: 300 },
      // Nothing cached from another test's run of the same command line: the cold start this is about.
      cacheDir: path.join(tmp.dir, 'cache'),
      servers: { late: fixtureEntry(path.join(tmp.dir, 'j.log'), {}, { FIXTURE_START_FILE: gate, FIXTURE_TOOLS_ONLY: '1' }) },
    });
    const session = await serveInProcess({ cwd: tmp.dir });
    try {
      let announced!: () => void;
      const changed = new Promise<void>((resolve) => (announced = resolve));
      session.client.setNotificationHandler('notifications/tools/list_changed', () => announced());
      expect((await session.client.listTools()).tools).toEqual([]);
      writeFileSync(gate, 'go');
      await changed;
      expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('late_echo');
    } finally {
      await session.close();
    }
  });

  it('is waited for by the first tools/list (nothing cached yet), so a client that lists once sees its tools', async () => {
    const tmp = tempDir();
    const gate = path.join(tmp.dir, 'go');
    writeConfig(tmp.dir, {
      cacheDir: path.join(tmp.dir, 'cache'),
      servers: { late: fixtureEntry(path.join(tmp.dir, 'j.log'), {}, { FIXTURE_START_FILE: gate, FIXTURE_TOOLS_ONLY: '1' }) },
    });
    const session = await serveInProcess({ cwd: tmp.dir });
    try {
      setTimeout(() => writeFileSync(gate, 'go'), 300);
      expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('late_echo');
    } finally {
      await session.close();
    }
  });

  it('answers a call of its tool made before it answered, once it is up, instead of "unknown tool"', async () => {
    const tmp = tempDir();
    const gate = path.join(tmp.dir, 'go');
    writeConfig(tmp.dir, {
      timeouts: { firstListMs: 0 },
      servers: { late: fixtureEntry(path.join(tmp.dir, 'j.log'), {}, { FIXTURE_START_FILE: gate, FIXTURE_TOOLS_ONLY: '1' }) },
    });
    const session = await serveInProcess({ cwd: tmp.dir });
    try {
      expect((await session.client.listTools()).tools).toEqual([]);
      const early = session.client.callTool({ name: 'late_echo', arguments: { text: 'early' } });
      setTimeout(() => writeFileSync(gate, 'go'), 300);
      expect(textOf(await early)).toBe('echo: early');
      // A name no server of that prefix publishes is still unknown, once the server is up.
      await expect(session.client.callTool({ name: 'late_nope', arguments: {} })).rejects.toThrow(/unknown tool "late_nope"/);
    } finally {
      await session.close();
    }
  });
});

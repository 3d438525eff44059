// The real binary against the inputs that used to end it or keep it alive: a mounted server that
// writes 11 MiB without a newline, an imhex file that is a FIFO, and a backend stuck every way a
// backend can be. Each gets a clear error while another client's call succeeds, and the host then
// exits within `timeouts.shutdownMs` on SIGTERM, SIGINT and stdin close, leaving no child behind.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { startHttp } from '../helpers/mcp.js';
import { BIN, FIXTURES, REPO } from '../helpers/paths.js';
import { alive } from '../helpers/process.js';
import { RecordingStdioTransport } from '../helpers/recording-stdio.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const env = isolatedEnv(t.dir);
const FIXTURE_SERVER = path.join(REPO, 'test/upstream/fixtures/server.mjs');
const STUCK = path.join(FIXTURES, 'stuck/index.js');
const SHUTDOWN_MS = 1_000;
/** Room for a loaded 2-core machine between the deadline and the process being gone. */
const SLACK_MS = 1_500;
const fifo = path.join(t.dir, 'trap.bin');
execFileSync('mkfifo', [fifo]);

const text = (r: { content?: unknown }) => ((r.content as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('\n');
const journal = path.join(t.dir, 'journal.log');
const startedPids = () =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('start '))
    .map((l) => Number(l.slice(6)));

describe('mcphost serve --transport http, one hostile input at a time', () => {
  it('answers the 11 MiB line and the FIFO with clear errors while another client is served, then exits 0 within its deadline', async () => {
    const config = t.write(
      'http.json',
      JSON.stringify({
        servers: {
          fx: { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_JOURNAL: journal, FIXTURE_TOOLS_ONLY: '1' } },
          calm: { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_JOURNAL: journal, FIXTURE_TOOLS_ONLY: '1' } },
        },
        plugins: { imhex: { file: fifo } },
        timeouts: { shutdownMs: SHUTDOWN_MS },
      }),
    );
    const server = await startHttp(['--config', config], { cwd: t.dir, env });
    try {
      const [legacy, modern] = await Promise.all([server.connect('legacy'), server.connect('modern')]);
      const started = Date.now();
      const [flood, trap, other] = await Promise.all([
        legacy.callTool({ name: 'fx_flood', arguments: { bytes: 11 * 1024 * 1024 } }),
        modern.callTool({ name: 'imhex_read_bytes', arguments: { offset: 0, count: 4 } }),
        modern.callTool({ name: 'calm_echo', arguments: { text: 'served' } }),
      ]);
      expect(flood.isError).toBe(true);
      expect(text(flood)).toMatch(/upstream fx unavailable: .*sent a message larger than 10485760 bytes/);
      expect(trap.isError).toBe(true);
      expect(text(trap)).toBe(
        `cannot open ${fifo}: it is a FIFO (named pipe), not a regular file — set plugins.imhex.file (or --file) to a regular file`,
      );
      expect(text(other)).toBe('echo: served');
      expect(Date.now() - started).toBeLessThan(10_000);
      // The host is still whole: the same legacy session is served on.
      expect(text(await legacy.callTool({ name: 'calm_echo', arguments: { text: 'again' } }))).toBe('echo: again');
      const children = startedPids();
      const stopAt = Date.now();
      server.child.kill('SIGTERM');
      const result = await server.child;
      expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
      expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + SLACK_MS);
      for (const pid of children) await expect.poll(() => alive(pid), { timeout: 2_000 }).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('`mcphost call imhex read_bytes --file <fifo>` returns at once with the error', async () => {
    const started = Date.now();
    const r = await execa(process.execPath, [BIN, 'call', 'imhex', 'read_bytes', '--offset', '0', '--count', '4', '--file', fifo], {
      cwd: t.dir,
      env,
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`cannot open ${fifo}: it is a FIFO (named pipe), not a regular file`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('mcphost serve over stdio with a backend stuck every way', () => {
  const config = t.write(
    'stuck.yaml',
    `plugins:\n  stuck:\n    module: ${STUCK}\n    fifo: ${fifo}\ntimeouts:\n  shutdownMs: ${SHUTDOWN_MS}\n`,
  );

  // stop() returns at once: shutdown finishes in time, and only process.exit is held by the thread.
  const settling = t.write(
    'stuck-settles.yaml',
    `plugins:\n  stuck:\n    module: ${STUCK}\n    fifo: ${fifo}\n    settles: true\ntimeouts:\n  shutdownMs: ${SHUTDOWN_MS}\n`,
  );

  async function stuckHost(tool: 'wait' | 'block', file = config) {
    const transport = new RecordingStdioTransport(['--config', file], { cwd: t.dir, env });
    const client = new Client({ name: 'stuck', version: '1' });
    await client.connect(transport);
    expect(text(await client.callTool({ name: 'stuck_ping', arguments: {} }))).toBe('pong');
    void client.callTool({ name: `stuck_${tool}`, arguments: {} }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    return transport;
  }

  for (const how of ['SIGTERM', 'SIGINT', 'stdin close'] as const) {
    it.concurrent(`exits 0 within its deadline on ${how} while a call waits on a socket and stop() never returns`, async () => {
      const transport = await stuckHost('wait');
      const stopAt = Date.now();
      if (how === 'stdin close') transport.child!.stdin!.end();
      else transport.child!.kill(how);
      const result = await transport.child!;
      expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
      expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + SLACK_MS);
    });
  }

  it('is gone soon after its deadline even with a thread stuck in the kernel on a FIFO (exiting itself would hang)', async () => {
    const transport = await stuckHost('block');
    const stopAt = Date.now();
    transport.child!.kill('SIGTERM');
    const result = await transport.child!;
    // process.exit waits for the stuck thread for ever; the last-resort watchdog kills it a second later.
    expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + 1_000 + SLACK_MS);
    expect(result.exitCode === 0 || result.signal === 'SIGKILL').toBe(true);
  });

  it('is gone soon after its backends closed in time while a thread is stuck in the kernel (the watchdog outlives the shutdown)', async () => {
    const transport = await stuckHost('block', settling);
    const stopAt = Date.now();
    transport.child!.kill('SIGTERM');
    const result = await transport.child!;
    expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_MS + 1_000 + SLACK_MS);
    expect(result.exitCode === 0 || result.signal === 'SIGKILL').toBe(true);
  });
});

// A Streamable HTTP server (with sessions) mounted from .mcprc: headers from the config (with
// ${VAR} interpolation) reach it, list changes arrive over its SSE stream, and a cancel or a timeout
// on the host reaches the running call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { runCli, isolatedEnv } from '../helpers/cli.js';
import { connectStdio, type StdioSession } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, journalLines, textOf, waitFor, writeConfig } from './helpers.js';

describe('an HTTP server mounted from .mcprc', () => {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'journal.log');
  let upstream: ResultPromise;
  let url: string;
  let session: StdioSession;
  const env = () => isolatedEnv(tmp.dir, { FX_TOKEN: 's3cret' });

  beforeAll(async () => {
    upstream = execa(process.execPath, [FIXTURE_SERVER, 'http', '0'], {
      env: { FIXTURE_JOURNAL: journal, FIXTURE_TOKEN: 's3cret' },
      reject: false,
    });
    let out = '';
    upstream.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
    const port = await waitFor(() => /listening (\d+)/.exec(out)?.[1], 'the fixture to listen');
    url = `http://127.0.0.1:${port}/mcp`;
    writeConfig(tmp.dir, {
      servers: {
        fxh: { url, headers: { Authorization: 'Bearer ${FX_TOKEN}' } },
        fxh2: { url, headers: { Authorization: 'Bearer ${FX_TOKEN}' }, timeoutMs: 1500, allowedTools: ['slow'], enabled: false },
        nokey: { url, enabled: false },
      },
    });
    session = await connectStdio(['--plugins', 'fxh'], { cwd: tmp.dir, env: env() });
  });
  afterAll(async () => {
    await session?.close();
    upstream?.kill('SIGKILL');
    await upstream;
  });

  it('sends the configured headers, and says so when the server refuses the call', async () => {
    expect(textOf(await session.client.callTool({ name: 'fxh_echo', arguments: { text: 'over http' } }))).toBe('echo: over http');
    const refused = await runCli(['call', 'nokey', 'echo', '--text', 'x'], { cwd: tmp.dir, env: env() });
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr.replace(/\s*›\s*/g, ' ')).toContain(
      `upstream nokey unavailable: ${url} answered HTTP 401 Unauthorized: missing or wrong bearer token`,
    );
  });

  it('forwards tools/list_changed that arrive over the server’s stream', async () => {
    let changed = 0;
    session.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    await session.client.callTool({ name: 'fxh_add-tool', arguments: { name: 'viahttp' } });
    await waitFor(() => changed > 0, 'tools/list_changed');
    expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('fxh_viahttp');
  });

  it('relays progress and the client’s cancellation', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const abort = new AbortController();
    const seen: number[] = [];
    await expect(
      session.client.callTool(
        { name: 'fxh_slow', arguments: { steps: 200, stepMs: 50 } },
        { signal: abort.signal, onprogress: (p) => (seen.push(p.progress), p.progress >= 3 && abort.abort('enough')) },
      ),
    ).rejects.toThrow();
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });

  it('times a one-shot call out and cancels it upstream', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const result = await runCli(['call', 'fxh2', 'slow', '--steps', '400'], { cwd: tmp.dir, env: env() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/timed out after 1500 ms/);
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });
});

// Supervision of mounted servers: no child outlives the host (its whole process group is stopped,
// SIGKILL when it ignores the rest), spawn errors name the command, a down upstream never takes
// the host down and shows as down in /health, doctor and `mcphost servers`. The host runs
// in-process; the upstreams are real child processes and sockets.
import { describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { doctorReport } from '../../src/app/inspect.js';
import { openHost } from '../../src/app/open.js';
import { serversReport } from '../../src/app/servers-report.js';
import { serveOnHttp } from '../../src/server/http.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { callInProcess, serveInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { alive, fixtureEntry, freePort, journalLines, textOf, waitFor, whenListed, writeConfig } from './helpers.js';

describe('stopping a mounted stdio server', () => {
  it('stops the server and every process in its group when the host shuts down', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal) } });
    const session = await serveInProcess({ cwd: tmp.dir });
    await whenListed(session.client, ['fx_pid']);
    const pid = Number(textOf(await session.client.callTool({ name: 'fx_pid', arguments: {} })));
    const grandchild = Number(textOf(await session.client.callTool({ name: 'fx_grandchild', arguments: {} })));
    expect(alive(pid) && alive(grandchild)).toBe(true);
    await session.close();
    // The grandchild ignores SIGTERM and never reads stdin: only the group SIGKILL stops it.
    await waitFor(() => !alive(pid) && !alive(grandchild), 'the server and its grandchild to be gone', 5_000);
  });

  it('escalates to SIGTERM, then SIGKILL, for a server that ignores its stdin closing', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal, {}, { FIXTURE_STUBBORN: '1' }) } });
    const session = await serveInProcess({ cwd: tmp.dir });
    await whenListed(session.client, ['fx_pid']);
    const pid = Number(textOf(await session.client.callTool({ name: 'fx_pid', arguments: {} })));
    await session.close();
    await waitFor(() => !alive(pid), 'the stubborn server to be killed', 5_000);
    expect(journalLines(journal)).toEqual(expect.arrayContaining(['stdin closed, staying', `sigterm ${pid}`]));
  });

  it('with eager: true, restarts a crashed server in the background, without waiting for a call', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal, { eager: true }) } });
    const session = await serveInProcess({ cwd: tmp.dir });
    try {
      await session.registry.startEager();
      await whenListed(session.client, ['fx_crash']);
      const starts = () => journalLines(journal).filter((l) => l.startsWith('start ')).length;
      const before = starts();
      const crashed = await session.client.callTool({ name: 'fx_crash', arguments: {} });
      expect(crashed.isError).toBe(true);
      await waitFor(() => starts() > before, 'a background restart');
    } finally {
      await session.close();
    }
  });
});

describe('an upstream that cannot start', () => {
  const tmp = tempDir();
  const script = path.join(tmp.dir, 'not-executable.sh');
  writeFileSync(script, '#!/bin/sh\necho hi\n');
  chmodSync(script, 0o644);
  writeConfig(tmp.dir, {
    servers: {
      missing: { command: 'mcphost-no-such-command' },
      noexec: { command: script },
      crashy: { command: process.execPath, args: ['-e', 'console.error("bad config: no API key"); process.exit(2)'] },
    },
  });
  const call = (plugin: string) => callInProcess({ cwd: tmp.dir, plugin, tool: 'anything' });

  it('makes `mcphost call` fail as unavailable with an error naming the command (ENOENT)', async () => {
    await expect(call('missing')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/upstream missing unavailable: cannot start `mcphost-no-such-command`: command not found \(ENOENT\)/),
    });
  });

  it('names the command and the cause when it is not executable (EACCES)', async () => {
    await expect(call('noexec')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining(`cannot start \`${script}\`: permission denied (EACCES)`),
    });
  });

  it('quotes what a server printed before it exited during start-up', async () => {
    await expect(call('crashy')).rejects.toMatchObject({ message: expect.stringMatching(/exited with code 2: bad config: no API key/) });
  });
});

/** What serve's /health answers (the parts these tests read). */
interface HealthBody {
  ok: boolean;
  backends: Record<string, { ok: boolean; message?: string; detail?: Record<string, unknown> }>;
}

describe('a host with one upstream down', () => {
  it('keeps serving the others, and /health, doctor and `mcphost servers` show the one that is down', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    const deadPort = await freePort();
    writeConfig(tmp.dir, {
      servers: {
        fx: fixtureEntry(journal),
        dead: { url: `http://127.0.0.1:${deadPort}/mcp` },
        off: { command: 'whatever', enabled: false },
      },
    });
    const env = isolatedEnv(tmp.dir);
    // `mcphost serve --http` in-process: the real HTTP server on a real socket, an SDK client over HTTP.
    const { registry, logger, resolved } = await openHost({ cwd: tmp.dir, env, serving: true, writeLog: () => undefined });
    const http = await serveOnHttp(registry, { name: 'mcphost', version: 'test' }, { ...resolved.config.http, port: 0 }, logger);
    const client = new Client({ name: 'test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const names = (await whenListed(client, ['fx_echo'])).map((t) => t.name);
      expect(names.some((n) => n.startsWith('dead_'))).toBe(false);
      expect(textOf(await client.callTool({ name: 'fx_echo', arguments: { text: 'up' } }))).toBe('echo: up');
      const health = await waitFor(async () => {
        const h = (await (await fetch(http.url.replace(/\/mcp$/, '/health'))).json()) as HealthBody;
        return h.backends.fx.ok ? h : undefined;
      }, '/health to show fx up');
      expect(health.ok).toBe(false);
      expect(health.backends.fx).toMatchObject({ ok: true, detail: { state: 'connected', tools: expect.any(Number) } });
      expect(health.backends.dead.ok).toBe(false);
      expect(health.backends.dead.message).toContain(`connection refused at http://127.0.0.1:${deadPort}/mcp`);
    } finally {
      await client.close();
      await http.close();
      await registry.close();
    }

    const doctor = await doctorReport({ cwd: tmp.dir, env, plugins: ['dead'], writeLog: () => undefined });
    expect(doctor.ok).toBe(false);
    expect(doctor.plugins.find((p) => p.name === 'dead')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^upstream dead is down: connection refused/),
    });

    const report = await serversReport({ cwd: tmp.dir, env, writeLog: () => undefined });
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(byName.fx).toMatchObject({ state: 'connected', transport: 'stdio', tools: 13 }); // the fixture's 13 tools, remove-tool included
    expect(byName.dead).toMatchObject({ state: 'down', transport: 'http', message: expect.stringContaining('connection refused') });
    expect(byName.off).toMatchObject({ state: 'disabled', enabled: false });
    const text = await runCli(['servers', 'dead'], { cwd: tmp.dir });
    expect(text.stdout).toMatch(
      new RegExp(`✖\\s+dead\\s+down\\s+http http://127.0.0.1:${deadPort}/mcp\\s+upstream dead is down: connection refused`),
    );
  });
});

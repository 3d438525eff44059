// Supervision of mounted servers: no child outlives the host (its whole process group is stopped,
// SIGKILL when it ignores the rest), spawn errors name the command, a down upstream never takes
// the host down and shows as down in /health, doctor and `mcphost servers`.
import { describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { connectStdio, startHttp } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';
import { alive, fixtureEntry, freePort, journalLines, textOf, waitFor, writeConfig } from './helpers.js';

describe('stopping a mounted stdio server', () => {
  it('stops the server and every process in its group when the host shuts down', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal) } });
    const session = await connectStdio([], { cwd: tmp.dir });
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
    const session = await connectStdio([], { cwd: tmp.dir });
    const pid = Number(textOf(await session.client.callTool({ name: 'fx_pid', arguments: {} })));
    await session.close();
    await waitFor(() => !alive(pid), 'the stubborn server to be killed', 5_000);
    expect(journalLines(journal)).toEqual(expect.arrayContaining(['stdin closed, staying', `sigterm ${pid}`]));
  });

  it('with eager: true, restarts a crashed server in the background, without waiting for a call', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal, { eager: true }) } });
    const session = await connectStdio([], { cwd: tmp.dir });
    try {
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

  it('makes `mcphost call` exit 4 with an error naming the command (ENOENT)', async () => {
    const result = await runCli(['call', 'missing', 'anything'], { cwd: tmp.dir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/upstream missing unavailable: cannot start `mcphost-no-such-command`: command not found \(ENOENT\)/);
  });

  it('names the command and the cause when it is not executable (EACCES)', async () => {
    const result = await runCli(['call', 'noexec', 'anything'], { cwd: tmp.dir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`cannot start \`${script}\`: permission denied (EACCES)`);
  });

  it('quotes what a server printed before it exited during start-up', async () => {
    const result = await runCli(['call', 'crashy', 'anything'], { cwd: tmp.dir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr.replace(/\s*›\s*/g, ' ')).toMatch(/exited with code 2: bad config: no API key/);
  });
});

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
    const server = await startHttp([], { cwd: tmp.dir });
    try {
      const client = await server.connect();
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('fx_echo');
      expect(names.some((n) => n.startsWith('dead_'))).toBe(false);
      expect(textOf(await client.callTool({ name: 'fx_echo', arguments: { text: 'up' } }))).toBe('echo: up');
      const health = await (await fetch(server.url.replace(/\/mcp$/, '/health'))).json();
      expect(health.ok).toBe(false);
      expect(health.backends.fx).toMatchObject({ ok: true, detail: { state: 'connected', tools: expect.any(Number) } });
      expect(health.backends.dead.ok).toBe(false);
      expect(health.backends.dead.message).toContain(`connection refused at http://127.0.0.1:${deadPort}/mcp`);
    } finally {
      await server.stop();
    }

    const doctor = await runCli(['doctor', '--plugins', 'fx,dead'], { cwd: tmp.dir });
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toMatch(/✖\s+dead.*upstream dead is down: connection refused/);

    const servers = await runCli(['servers', '--json'], { cwd: tmp.dir });
    // The report is printed either way; the exit code says a server is down, as doctor's does.
    expect(servers.exitCode).toBe(4);
    const report = JSON.parse(servers.stdout);
    expect(report.error).toMatchObject({ exit: 4, message: expect.stringContaining('dead is down') });
    const byName = Object.fromEntries(report.servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.fx).toMatchObject({ state: 'connected', transport: 'stdio', tools: 7 });
    expect(byName.dead).toMatchObject({ state: 'down', transport: 'http', message: expect.stringContaining('connection refused') });
    expect(byName.off).toMatchObject({ state: 'disabled', enabled: false });
    const text = await runCli(['servers'], { cwd: tmp.dir });
    expect(text.stdout).toMatch(/✔\s+fx\s+connected\s+7 tools\s+stdio /);
  });
});

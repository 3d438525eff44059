// Live configuration: `mcphost serve` (in-process, HTTP on 127.0.0.1) while a 2025-era SDK client
// holds a session, and the config file is edited under it. A valid edit adds, restarts or removes
// exactly what changed and the same session hears tools/list_changed and calls the new tool; a
// broken edit is logged with its file and key and changes nothing; an edit of a project file that
// makes it unapproved starts nothing new until `mcphost trust`.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { watchConfig } from '../../src/app/live-config.js';
import { approveFile } from '../../src/app/trust.js';
import { serveOnHttp } from '../../src/server/http.js';
import { isolatedEnv } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, textOf, waitFor, whenListed } from '../upstream/helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

function fixture(env: Record<string, string> = {}) {
  return { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_TOOLS_ONLY: '1', ...env } };
}

async function serveLive(dir: string, configFile?: string, env = isolatedEnv(dir) as NodeJS.ProcessEnv) {
  const log: string[] = [];
  const options = { cwd: dir, env, configFile, serving: true, writeLog: (l: string) => log.push(l) };
  const { registry, logger, resolved, loaded } = await openHost(options);
  const http = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '0' },
    { ...resolved.config.http, port: 0, allowedOrigins: [], allowedHosts: [] },
    logger,
  );
  const live = watchConfig(options, registry, { resolved, loaded }, logger);
  const transport = new StreamableHTTPClientTransport(new URL(http.url));
  const client = new Client({ name: 'live-test', version: '1' });
  await client.connect(transport);
  const changes: number[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void changes.push(Date.now()));
  cleanups.push(async () => {
    await client.close();
    live.close();
    await http.close();
    await registry.close();
  });
  return { client, transport, registry, log, changes };
}

const pidOf = async (client: Client, tool: string) => Number(textOf(await client.callTool({ name: tool, arguments: {} })));

describe('editing the config file while serving', () => {
  it('says that a change of http.clients or audit takes effect when serve restarts', async () => {
    const tmp = tempDir();
    writeFileSync(path.join(tmp.dir, 'a.bin'), 'abcdef');
    const file = path.join(tmp.dir, 'mcphost.yaml');
    writeFileSync(file, 'plugins:\n  imhex: { file: a.bin }\n');
    const { log } = await serveLive(tmp.dir, file);
    writeFileSync(
      file,
      `plugins:\n  imhex: { file: a.bin }\nhttp:\n  clients:\n    ci: { token: 'sha256:${'ab'.repeat(32)}' }\naudit:\n  file: trail.jsonl\n`,
    );
    await waitFor(() => log.some((l) => /audit takes effect when mcphost serve restarts/.test(l)), 'the audit change reported');
    expect(log.join('\n')).toMatch(/http takes effect when mcphost serve restarts/);
  });

  it('adds a mounted server to a running session, restarts only what changed, and ignores a broken edit', async () => {
    const tmp = tempDir();
    writeFileSync(path.join(tmp.dir, 'a.bin'), 'abcdef');
    writeFileSync(path.join(tmp.dir, 'b.bin'), 'ghijkl');
    const file = path.join(tmp.dir, 'mcphost.yaml');
    const write = (config: string) => writeFileSync(file, config);
    write('plugins:\n  imhex: { file: a.bin }\n');
    const { client, transport, log, changes } = await serveLive(tmp.dir, file);
    const session = transport.sessionId;
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('fx_echo');

    write(`plugins:\n  imhex: { file: a.bin }\nservers:\n  fx: ${JSON.stringify(fixture())}\n`);
    await waitFor(() => changes.length > 0, 'tools/list_changed on the open session');
    await whenListed(client, ['fx_echo']);
    expect(textOf(await client.callTool({ name: 'fx_echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
    expect(transport.sessionId).toBe(session);
    expect(log.join('\n')).toMatch(/config reloaded .*added fx/);

    // imhex's setting changes: imhex restarts, the mounted server keeps its process.
    const pid = await pidOf(client, 'fx_pid');
    write(`plugins:\n  imhex: { file: b.bin }\nservers:\n  fx: ${JSON.stringify(fixture())}\n`);
    await waitFor(() => log.some((l) => /restarted imhex/.test(l)), 'imhex restarted');
    expect(log.join('\n')).not.toMatch(/restarted .*fx/);
    expect(await pidOf(client, 'fx_pid')).toBe(pid);
    const read = await client.callTool({ name: 'imhex_read_bytes', arguments: { offset: 0, count: 2 } });
    expect((read.structuredContent as { hex_data: string }).hex_data).toBe(Buffer.from('gh').toString('hex'));

    // A broken edit: logged with the file and the key, nothing changes.
    const seen = log.length;
    write(`plugins:\n  imhex: { file: 42 }\nservers:\n  fx: ${JSON.stringify(fixture())}\n`);
    await waitFor(() => log.slice(seen).some((l) => l.includes('not applied')), 'the broken edit reported');
    const said = log.slice(seen).join('\n');
    expect(said).toContain(file);
    expect(said).toContain('plugins.imhex.file');
    expect(await pidOf(client, 'fx_pid')).toBe(pid);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('imhex_read_bytes');

    // The server's own settings change: it restarts (a new process); then it is removed.
    write(`plugins:\n  imhex: { file: b.bin }\nservers:\n  fx: ${JSON.stringify(fixture({ FIXTURE_X: '1' }))}\n`);
    await waitFor(async () => (await pidOf(client, 'fx_pid').catch(() => pid)) !== pid, 'fx restarted');
    write('plugins:\n  imhex: { file: b.bin }\n');
    await waitFor(async () => !(await client.listTools()).tools.some((t) => t.name === 'fx_echo'), 'fx removed');
    expect(transport.sessionId).toBe(session);
  }, 60_000);

  it("waits for `mcphost trust` before it applies an edit of a project's file", async () => {
    const tmp = tempDir();
    const file = path.join(tmp.dir, '.mcprc.json');
    const env = isolatedEnv(tmp.dir) as NodeJS.ProcessEnv;
    writeFileSync(file, JSON.stringify({ servers: { fx: fixture() } }));
    approveFile(file, env);
    const { client, log } = await serveLive(tmp.dir);
    await whenListed(client, ['fx_pid']);
    const pid = await pidOf(client, 'fx_pid');

    // Someone edits the project's file: it is approved no more, so its new command must not run.
    writeFileSync(file, JSON.stringify({ servers: { fx: fixture({ FIXTURE_X: 'edited' }), fy: fixture() } }));
    await waitFor(() => log.some((l) => l.includes('not applied') && l.includes('mcphost trust')), 'the edit held back');
    expect(await pidOf(client, 'fx_pid')).toBe(pid);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('fy_echo');

    // The user approves it: the approval record is watched, and the edit applies.
    approveFile(file, env);
    await whenListed(client, ['fy_echo']);
    await waitFor(async () => (await pidOf(client, 'fx_pid').catch(() => pid)) !== pid, 'fx restarted with the approved edit');
  }, 60_000);

  it('applies a plugin setting that runs a program once the file is approved, and holds it while an edit waits', async () => {
    const tmp = tempDir();
    const marker = path.join(tmp.dir, 'RAN');
    const luajit = path.join(tmp.dir, 'luajit.sh');
    writeFileSync(luajit, `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\nexec luajit "$@"\n`);
    chmodSync(luajit, 0o755);
    const file = path.join(tmp.dir, '.mcprc.json');
    const env = isolatedEnv(tmp.dir, { POB_PATH: path.join(FIXTURES, 'pob/fake-pob') }) as NodeJS.ProcessEnv;
    writeFileSync(file, JSON.stringify({ plugins: { pob: { cmd: './luajit.sh', lua: { enabled: true } } } }));
    const { client, log } = await serveLive(tmp.dir, undefined, env);
    const start = async () => textOf(await client.callTool({ name: 'pob_lua_start', arguments: {} }));
    expect(await start()).toContain(`plugins.pob.cmd in ${file} waits for your approval`);
    expect(existsSync(marker)).toBe(false);

    // Approved while serving: the approval record is watched, pob restarts with the file's cmd.
    approveFile(file, env);
    // ~/.config/mcphost did not exist when serving started: its creation is seen too.
    await waitFor(async () => (await start()).includes('"running": true'), 'pob started with the approved cmd');
    expect(existsSync(marker)).toBe(true);

    // An edit makes the file unapproved: pob keeps the cmd it was approved with, rather than the default.
    writeFileSync(file, JSON.stringify({ plugins: { pob: { cmd: './other.sh', lua: { enabled: true } } } }));
    await waitFor(() => log.some((l) => l.includes('not applied') && l.includes('plugins.pob.cmd')), 'the edit held back');
    expect(await start()).toContain('"running": true');
  }, 60_000);
});

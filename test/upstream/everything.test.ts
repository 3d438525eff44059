// The reference third-party server, @modelcontextprotocol/server-everything, mounted over stdio,
// Streamable HTTP and the older HTTP+SSE transport, served in-process (the `serve` path) to the SDK
// client; and one-shot (`mcphost call`, `mcphost servers`) in-process too.
import { afterAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import type { Client } from '@modelcontextprotocol/client';
import { serversReport } from '../../src/app/servers-report.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { alive, EVERYTHING, freePort, textOf, waitFor, whenListed, writeConfig } from './helpers.js';

/** Starts server-everything in `mode` on a free port and waits until it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse', port?: number): Promise<{ port: number; child: ResultPromise }> {
  port ??= await freePort();
  const child = execa(process.execPath, [EVERYTHING, mode], { env: { PORT: String(port) }, reject: false, stdin: 'ignore' });
  let out = '';
  const onData = (d: Buffer) => void (out += d.toString());
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  await waitFor(() => /listening on port|running on port/i.test(out), `server-everything ${mode} to listen:\n${out}`);
  return { port, child };
}

async function stopEverything(child: ResultPromise | undefined) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGKILL');
  await child;
}

async function checkBasics(client: Client, prefix: string) {
  const tools = await whenListed(client, [`${prefix}_echo`]);
  const names = tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining([`${prefix}_echo`, `${prefix}_get-sum`, `${prefix}_trigger-long-running-operation`]));
  expect(tools.find((t) => t.name === `${prefix}_echo`)).toMatchObject({ title: 'Echo Tool', annotations: { readOnlyHint: true } });
  expect(textOf(await client.callTool({ name: `${prefix}_echo`, arguments: { message: 'hello' } }))).toBe('Echo: hello');
  expect(textOf(await client.callTool({ name: `${prefix}_get-sum`, arguments: { a: 2, b: 40 } }))).toBe('The sum of 2 and 40 is 42.');
  const structured = await client.callTool({ name: `${prefix}_get-structured-content`, arguments: { location: 'Chicago' } });
  expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
}

async function checkProgressAndResources(client: Client, prefix: string) {
  const progress: number[] = [];
  const done = await client.callTool(
    { name: `${prefix}_trigger-long-running-operation`, arguments: { duration: 1, steps: 4 } },
    { onprogress: (p) => void progress.push(p.progress) },
  );
  expect(textOf(done)).toContain('Long running operation completed');
  expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toContain('demo://resource/static/document/architecture.md');
  const doc = await client.readResource({ uri: 'demo://resource/static/document/architecture.md' });
  expect(doc.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringMatching(/\w/) });
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
  const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
  expect(dynamic.contents[0]).toMatchObject({ text: expect.stringContaining('Resource 7') });
  const completion = await client.complete({
    ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
    argument: { name: 'resourceId', value: '12' },
  });
  expect(completion.completion.values).toEqual(['12']);
}

describe('server-everything over stdio', () => {
  const tmp = tempDir();
  writeConfig(tmp.dir, { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
  let session: InProcessSession;
  afterAll(() => session?.close());

  it('is served with prefixed tools, results, progress and resources', async () => {
    session = await serveInProcess({ cwd: tmp.dir });
    await checkBasics(session.client, 'everything');
    await checkProgressAndResources(session.client, 'everything');
  });

  it('reports the kill, then restarts the server on a later call', async () => {
    const client = session.client;
    const health = async () => (await session.registry.health()).everything as { ok: boolean; message?: string; detail: any };
    const before = await health();
    expect(before).toMatchObject({ ok: true, detail: { state: 'connected', pid: expect.any(Number), restarts: 0 } });
    process.kill(before.detail.pid, 'SIGKILL');
    await waitFor(async () => (await health()).ok === false, '/health to show everything down');
    const down = await health();
    expect(down.message).toMatch(/upstream everything is down: `.*index\.js stdio` was killed by SIGKILL/);
    // Within the first backoff second a call is refused with the reason (later it already restarts).
    const refused = await client.callTool({ name: 'everything_echo', arguments: { message: 'x' } });
    if (refused.isError)
      expect(textOf(refused)).toMatch(
        /^upstream everything unavailable: `.*index\.js stdio` was killed by SIGKILL(: .*)?; next restart attempt in \d s$/,
      );
    const echoed = await waitFor(async () => {
      const r = await client.callTool({ name: 'everything_echo', arguments: { message: 'back' } });
      return r.isError ? undefined : textOf(r);
    }, 'the restarted server to answer');
    expect(echoed).toBe('Echo: back');
    const after = await health();
    expect(after.detail).toMatchObject({ state: 'connected', restarts: 1 });
    expect(after.detail.pid).not.toBe(before.detail.pid);
    expect(alive(before.detail.pid)).toBe(false);
  });
});

describe('server-everything over Streamable HTTP', () => {
  const tmp = tempDir();
  let upstream: ResultPromise | undefined;
  let session: InProcessSession | undefined;
  afterAll(async () => {
    await session?.close();
    await stopEverything(upstream);
  });

  it('is served, survives the server going away, and re-initialises when it is back', async () => {
    const started = await startEverything('streamableHttp');
    upstream = started.child;
    writeConfig(tmp.dir, { servers: { evh: { url: `http://127.0.0.1:${started.port}/mcp` } } });
    session = await serveInProcess({ cwd: tmp.dir });
    const client = session.client;
    await checkBasics(client, 'evh');
    await checkProgressAndResources(client, 'evh');

    await stopEverything(upstream);
    const refused = await client.callTool({ name: 'evh_echo', arguments: { message: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(`upstream evh unavailable: connection refused at http://127.0.0.1:${started.port}/mcp (is it running?)`);

    upstream = (await startEverything('streamableHttp', started.port)).child;
    expect(textOf(await client.callTool({ name: 'evh_echo', arguments: { message: 'again' } }))).toBe('Echo: again');
  });
});

describe('server-everything over the older HTTP+SSE transport', () => {
  const tmp = tempDir();
  let upstream: ResultPromise | undefined;
  afterAll(() => stopEverything(upstream));

  it('is reached through the fallback from Streamable HTTP', async () => {
    const started = await startEverything('sse');
    upstream = started.child;
    writeConfig(tmp.dir, { servers: { evs: { url: `http://127.0.0.1:${started.port}/sse` } } });
    const call = await callInProcess({ cwd: tmp.dir, plugin: 'evs', tool: 'get-sum', args: { a: 1, b: 2 } });
    expect(textOf(call.result)).toBe('The sum of 1 and 2 is 3.');
    const servers = await serversReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), writeLog: () => undefined });
    expect(servers.servers[0]).toMatchObject({ name: 'evs', state: 'connected', status: { via: 'sse' } });
  });
});

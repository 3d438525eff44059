// The unreal plugin against the seed's fake editor (request/response MCP 2025-03-26, no sessions,
// GET /health and the /-/ resource endpoints), with the host in-process and once through the real
// `mcphost call`. The released plugin's behaviour is in replica.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { doctorReport } from '../../../src/app/inspect.js';
import { isolatedEnv, runCli } from '../../helpers/cli.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { freePort, journalLines, textOf, whenListed, writeConfig } from '../../upstream/helpers.js';
import { describeDown } from '../../../plugins/unreal/editor.js';
import { startEditor, type EditorOptions, type FakeEditor } from './fake-editor.js';

const editors: FakeEditor[] = [];
const sessions: InProcessSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(editors.splice(0).map((e) => e.stop()));
});

async function editor(options: EditorOptions = {}) {
  const e = await startEditor(options);
  editors.push(e);
  return e;
}

async function serve(dir: string) {
  const s = await serveInProcess({ cwd: dir });
  sessions.push(s);
  return s;
}

const quiet = { writeLog: () => undefined };

describe('unreal (seed fake editor)', () => {
  it('re-exports the editor’s tools as unreal_* and its resources, read through /mcp', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    const tools = await whenListed(client, ['unreal_get_level_actors']);
    expect(tools.map((t) => t.name).sort()).toEqual(['unreal_get_level_actors', 'unreal_search_assets']);
    expect(tools.find((t) => t.name === 'unreal_search_assets')!.inputSchema).toMatchObject({
      required: ['query'],
      properties: { limit: { type: 'integer' } },
    });
    const actors = await client.callTool({ name: 'unreal_get_level_actors', arguments: { class: 'DirectionalLight' } });
    expect(JSON.parse(textOf(actors))).toEqual([{ name: 'Sun', class: 'DirectionalLight', location: [0, 0, 1000] }]);
    const refused = await client.callTool({ name: 'unreal_search_assets', arguments: { query: '' } });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toBe('query must be a non-empty string');

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['unreal://level/current', 'unreal://project/info']);
    const info = await client.readResource({ uri: 'unreal://project/info' });
    expect(JSON.parse((info.contents[0] as { text: string }).text)).toEqual({ project: 'Demo', engine: '5.4.4' });
    const lines = journalLines(journal);
    expect(lines).toContain('/mcp resources/read');
    expect(lines.some((l) => l.startsWith('/-/'))).toBe(false);
  });

  it('falls back to /-/list-resources and /-/read-resource when /mcp does not offer resources', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal, mcpResources: false });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_get_level_actors']);
    const { resources } = await client.listResources();
    expect(resources).toContainEqual({ uri: 'unreal://level/current', name: 'Current level', mimeType: 'text/plain' });
    const read = await client.readResource({ uri: 'unreal://level/current' });
    expect((read.contents[0] as { text: string }).text).toBe('/Game/Maps/Main (3 actors)');
    expect(journalLines(journal)).toEqual(expect.arrayContaining(['/-/list-resources resources/list', '/-/read-resource resources/read']));
  });

  it('works from `mcphost call`, with --url naming the editor for one call', async () => {
    const tmp = tempDir();
    const e = await editor();
    const found = await runCli(['call', 'unreal', 'search_assets', '--query', 'hero', '--url', e.url], { cwd: tmp.dir });
    expect(found).toMatchObject({ exitCode: 0, stdout: '/Game/Characters/Hero\n/Game/Characters/HeroAnim' });
    const flags = [
      { name: 'query', value: '', text: '--query' },
      { name: 'url', value: e.url, text: '--url' },
    ];
    const bad = await callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'search_assets', flags, ...quiet });
    expect(bad.error).toMatchObject({ kind: 'tool_error', message: 'query must be a non-empty string' });
  });

  it('says how to fix it when the editor is not running, and doctor agrees', async () => {
    const tmp = tempDir();
    const port = await freePort();
    writeConfig(tmp.dir, { plugins: { unreal: { url: `http://127.0.0.1:${port}`, mode: 'unrealmcpserver' } } });
    const message = `Unreal Editor not running at http://127.0.0.1:${port}: start it with the UnrealMCPServer plugin enabled (connection refused)`;
    await expect(callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'get_level_actors', ...quiet })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message,
    });
    const doctor = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), ...quiet });
    expect(doctor.plugins[0]).toMatchObject({ name: 'unreal', ok: false, message });
  });

  it('checks health with GET /health where the editor serves it', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const doctor = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), ...quiet });
    expect(doctor.plugins[0]).toMatchObject({
      ok: true,
      message: `UnrealMCPServer 0.1.0 (5.4.4) is up at ${e.url} (protocol 2025-03-26, 2 tools)`,
    });
    expect(doctor.plugins[0].health?.detail?.ums).toMatchObject({ health: 'GET /health', protocolVersion: '2025-03-26' });
    expect(journalLines(journal)).toContain('GET /health');
  });

  it('reports an HTTP error from a running editor as what it answered', async () => {
    const tmp = tempDir();
    const e = await editor({ failCalls: 500 });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_get_level_actors']);
    const failed = await client.callTool({ name: 'unreal_get_level_actors', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe(
      `Unreal Editor at ${e.url} answered HTTP 500 Internal Server Error: LogPython: Error: editor script raised an exception`,
    );
    expect(failed._meta?.['mcphost/error']).toMatchObject({ code: 'HTTP_ERROR', data: { status: 500 } });
  });

  it('re-initialises after the editor restarts, without restarting mcphost', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const first = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: first.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_get_level_actors']);
    expect((await client.callTool({ name: 'unreal_get_level_actors', arguments: {} })).isError).toBeFalsy();

    await first.stop();
    const down = await client.callTool({ name: 'unreal_get_level_actors', arguments: {} });
    expect(down.isError).toBe(true);
    expect(textOf(down)).toBe(
      `Unreal Editor not running at ${first.url}: start it with the UnrealMCPServer plugin enabled (connection refused)`,
    );

    const initsBefore = journalLines(journal).filter((l) => l === '/mcp initialize').length;
    await editor({ journal, port: first.port });
    const back = await client.callTool({ name: 'unreal_search_assets', arguments: { query: 'crate' } });
    expect(textOf(back)).toBe('/Game/Props/Crate');
    expect(journalLines(journal).filter((l) => l === '/mcp initialize').length).toBe(initsBefore + 1);
  });

  it('publishes the editor’s tools once it starts after mcphost did', async () => {
    const tmp = tempDir();
    const port = await freePort();
    writeConfig(tmp.dir, { plugins: { unreal: { url: `http://127.0.0.1:${port}`, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    expect((await client.listTools()).tools).toEqual([]);
    let announced!: () => void;
    const changed = new Promise<void>((resolve) => (announced = resolve));
    client.setNotificationHandler('notifications/tools/list_changed', () => announced());
    await editor({ port });
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('unreal_get_level_actors');
  });
});

describe('what a failed connection to the editor says', () => {
  const base = 'http://127.0.0.1:30069';
  it('tells an editor that is not running from one that answered or is busy', () => {
    expect(describeDown(base, `connection refused at ${base}/mcp (is it running?)`)).toBe(
      `Unreal Editor not running at ${base}: start it with the UnrealMCPServer plugin enabled (connection refused)`,
    );
    expect(describeDown(base, `${base}/mcp answered HTTP 500 Internal Server Error: boom`)).toBe(
      `Unreal Editor at ${base} answered HTTP 500 Internal Server Error: boom`,
    );
    expect(describeDown(base, `${base}/mcp did not answer initialize within 10000 ms`)).toBe(
      `Unreal Editor at ${base} did not answer initialize within 10000 ms: is it busy (a modal dialog, a compile, a breakpoint)?`,
    );
  });
});

// The unreal plugin against the fake editor (request/response MCP 2025-03-26, no sessions), through
// the real `mcphost serve` and `mcphost call`.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { connectStdio, type StdioSession } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { freePort, journalLines, textOf, waitFor, writeConfig } from '../../upstream/helpers.js';
import { startEditor, type FakeEditor } from './fake-editor.js';

const editors: FakeEditor[] = [];
const sessions: StdioSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(editors.splice(0).map((e) => e.stop()));
});

async function editor(options: Parameters<typeof startEditor>[0] = {}) {
  const e = await startEditor(options);
  editors.push(e);
  return e;
}

async function serve(dir: string) {
  const s = await connectStdio([], { cwd: dir });
  sessions.push(s);
  return s;
}

describe('unreal', () => {
  it('re-exports the editor’s tools as unreal_* and its resources, read through /mcp', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url } } });
    const { client } = await serve(tmp.dir);
    const { tools } = await client.listTools();
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
    expect(JSON.parse(info.contents[0].text as string)).toEqual({ project: 'Demo', engine: '5.4.4' });
    const lines = journalLines(journal);
    expect(lines).toContain('/mcp resources/read');
    expect(lines.some((l) => l.startsWith('/-/'))).toBe(false);
  });

  it('falls back to /-/list-resources and /-/read-resource when /mcp does not offer resources', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal, mcpResources: false });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url } } });
    const resources = await runCli(['resources', '--plugins', 'unreal'], { cwd: tmp.dir });
    expect(resources.stdout).toMatch(/unreal:\/\/level\/current\s+text\/plain\s+Current level/);
    const read = await runCli(['read', 'unreal://level/current', '--plugins', 'unreal'], { cwd: tmp.dir });
    expect(read.stdout).toBe('/Game/Maps/Main (3 actors)');
    expect(journalLines(journal)).toEqual(expect.arrayContaining(['/-/list-resources resources/list', '/-/read-resource resources/read']));
  });

  it('works from `mcphost call`, with --url naming the editor for one call', async () => {
    const tmp = tempDir();
    const e = await editor();
    const found = await runCli(['call', 'unreal', 'search_assets', '--query', 'hero', '--url', e.url], { cwd: tmp.dir });
    expect(found).toMatchObject({ exitCode: 0, stdout: '/Game/Characters/Hero\n/Game/Characters/HeroAnim' });
    const bad = await runCli(['call', 'unreal', 'search_assets', '--query', '', '--url', e.url], { cwd: tmp.dir });
    expect(bad.exitCode).toBe(5);
    expect(bad.stderr).toContain('query must be a non-empty string');
  });

  it('says how to fix it when the editor is not running, and doctor agrees', async () => {
    const tmp = tempDir();
    const port = await freePort();
    writeConfig(tmp.dir, { plugins: { unreal: { url: `http://127.0.0.1:${port}` } } });
    const call = await runCli(['call', 'unreal', 'get_level_actors'], { cwd: tmp.dir });
    expect(call.exitCode).toBe(4);
    expect(call.stderr.replace(/\s*›\s*/g, ' ')).toContain(
      `Unreal Editor not reachable at http://127.0.0.1:${port}: start the editor with the UnrealMCPServer plugin enabled`,
    );
    const doctor = await runCli(['doctor'], { cwd: tmp.dir });
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toContain(`✖ unreal 0.1.0 Unreal Editor not reachable at http://127.0.0.1:${port}: start the editor`);
  });

  it('checks health with GET /health', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url } } });
    const doctor = await runCli(['doctor'], { cwd: tmp.dir });
    expect(doctor.exitCode).toBe(0);
    expect(doctor.stdout).toContain(`✔ unreal 0.1.0 UnrealMCPServer 0.1.0 (5.4.4) is up at ${e.url} (2 tools)`);
    expect(journalLines(journal)).toContain('GET /health');
  });

  it('re-initialises after the editor restarts, without restarting mcphost', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const first = await editor({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: first.url } } });
    const { client } = await serve(tmp.dir);
    expect((await client.callTool({ name: 'unreal_get_level_actors', arguments: {} })).isError).toBeFalsy();

    await first.stop();
    const down = await client.callTool({ name: 'unreal_get_level_actors', arguments: {} });
    expect(down.isError).toBe(true);
    expect(textOf(down)).toBe(
      `Unreal Editor not reachable at ${first.url}: start the editor with the UnrealMCPServer plugin enabled (connection refused)`,
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
    writeConfig(tmp.dir, { plugins: { unreal: { url: `http://127.0.0.1:${port}` } } });
    const { client } = await serve(tmp.dir);
    expect((await client.listTools()).tools).toEqual([]);
    let changed = false;
    client.setNotificationHandler('notifications/tools/list_changed', () => void (changed = true));
    await editor({ port });
    await waitFor(() => changed, 'tools/list_changed once the editor is up');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('unreal_get_level_actors');
  });
});

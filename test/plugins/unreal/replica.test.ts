// The unreal plugin against a replica of the released UnrealMCPServer plugin (test/fixtures/unreal/
// unreal-mcp-server.mjs, built from prophecygamestudio/UnrealMCPServer's source): only POST /mcp
// (no /health), protocol 2024-11-05, a JSON-RPC answer to every notification, -32601 for a cancel,
// templates `unreal+t3d://{filepath}` whose filepath holds slashes, one request at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { doctorReport } from '../../../src/app/inspect.js';
import { openHost } from '../../../src/app/open.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { journalLines, textOf, waitFor, whenListed, writeConfig } from '../../upstream/helpers.js';
import { startEditor, type EditorOptions, type FakeEditor } from './fake-editor.js';

const editors: FakeEditor[] = [];
const sessions: InProcessSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(editors.splice(0).map((e) => e.stop()));
});

async function replica(options: EditorOptions = {}) {
  const e = await startEditor({ ...options, real: true });
  editors.push(e);
  return e;
}

async function serve(dir: string, writeLog?: (line: string) => void) {
  const s = await serveInProcess({ cwd: dir, writeLog });
  sessions.push(s);
  return s;
}

const BP_PLAYER = 'unreal+t3d:///Game/Blueprints/BP_Player.BP_Player';

describe('unreal against the released UnrealMCPServer (replica)', () => {
  it('is healthy in doctor and in serve’s /health although the editor serves no /health', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await replica({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const doctor = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), writeLog: () => undefined });
    expect(doctor.ok).toBe(true);
    expect(doctor.plugins[0]).toMatchObject({
      ok: true,
      message: `UnrealMCPServer 0.1.0 (5.6.1) is up at ${e.url} (protocol 2024-11-05, 4 tools)`,
    });
    expect(doctor.plugins[0].health?.detail?.ums).toMatchObject({ health: 'initialize/ping (no /health)', protocolVersion: '2024-11-05' });
    expect(journalLines(journal)).toEqual(expect.arrayContaining(['GET /health 404', '/mcp initialize', '/mcp notifications/initialized']));

    const { registry } = await serve(tmp.dir);
    const health = await waitFor(async () => {
      const h = (await registry.health()).unreal;
      return h.ok ? h : undefined;
    }, 'serve’s /health to see the editor');
    expect(health.message).toBe(`UnrealMCPServer 0.1.0 (5.6.1) is up at ${e.url} (protocol 2024-11-05, 4 tools)`);
  });

  it('reads unreal+t3d:///Game/… through the editor’s own template, and reports its errors as its answers', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await replica({ journal });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_query_asset']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['unreal+t3d://{filepath}', 'unreal+md://{filepath}']);

    const read = await client.readResource({ uri: BP_PLAYER });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toEqual({ uri: BP_PLAYER, mimeType: 'application/vnd.unreal.t3d', text: expect.any(String) });
    expect((read.contents[0] as { text: string }).text).toMatch(/^Begin Object Class=\/Script\/Engine\.Blueprint Name="BP_Player"/);

    // A map is no Blueprint: the editor's handler fails, and says so with -32603.
    await expect(client.readResource({ uri: 'unreal+t3d:///Game/Maps/Arena.umap' })).rejects.toThrow(
      `Unreal Editor at ${e.url} answered error -32603: Failed to load resource contents`,
    );
    // Only the editor publishes this scheme: a URI none of its templates spells is still its to answer.
    await expect(client.readResource({ uri: 'unreal+t3d:Game/Nothing' })).rejects.toThrow(
      `Unreal Editor at ${e.url} answered error -32002: Resource not found`,
    );
    expect(journalLines(journal).filter((l) => l === '/mcp resources/read')).toHaveLength(3);
  });

  it('reads it in a one-shot command too (`mcphost read`), where the editor is reached only then', async () => {
    const tmp = tempDir();
    const e = await replica();
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { registry } = await openHost({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), writeLog: () => undefined });
    try {
      const read = await registry.readResource(BP_PLAYER);
      expect('contents' in read && read.contents[0].text).toMatch(
        /^Begin Object Class=\/Script\/Engine\.Blueprint Name="BP_Player"[^]*End Object\r\n$/,
      );
    } finally {
      await registry.close();
    }
  });

  it('calls its tools: structured results, its own errors, and a call that times out while the editor compiles', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const logs: string[] = [];
    const e = await replica({ journal, compileMs: 1_200 });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client } = await serve(tmp.dir, (line) => logs.push(line));
    await whenListed(client, ['unreal_query_asset']);
    const found = await client.callTool({ name: 'unreal_query_asset', arguments: { assetPath: '/Game/Maps/Arena.Arena' } });
    expect(found.structuredContent).toMatchObject({ bExists: true, assetName: 'Arena', classPath: '/Script/Engine.World' });
    const missing = await client.callTool({ name: 'unreal_execute_console_command', arguments: { command: '' } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(textOf(missing))).toMatchObject({ bSuccess: false, error: 'Missing required parameter: command' });

    // The compile holds the game thread. The caller gives up at its timeout, but mcphost keeps the
    // compile's place until the editor answers it and sends no cancel (the plugin cannot stop a tool):
    // the next call reaches the editor only after the compile, never beside it.
    const started = Date.now();
    const timedOut = await client.callTool({
      name: 'unreal_request_editor_compile',
      arguments: { timeoutSeconds: 60 },
      _meta: { 'mcphost/timeoutMs': 300 },
    });
    expect(timedOut.isError).toBe(true);
    expect(textOf(timedOut)).toMatch(/timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
    const after = await client.callTool({ name: 'unreal_query_asset', arguments: { assetPath: '/Game/Nope.Nope' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    expect(after.structuredContent).toMatchObject({ bExists: false, assetPath: '/Game/Nope.Nope' });
    const lines = journalLines(journal);
    expect(lines.slice(lines.indexOf('/mcp tools/call request_editor_compile'))).toEqual([
      '/mcp tools/call request_editor_compile',
      '/mcp tools/call query_asset',
    ]);
    expect(logs).toEqual([]);
  });

  it('reports an editor whose game thread is busy as busy, not as down', async () => {
    const tmp = tempDir();
    const e = await replica({ compileMs: 5_000 });
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const { client, registry } = await serve(tmp.dir);
    await whenListed(client, ['unreal_request_editor_compile']);
    const compiling = client.callTool({ name: 'unreal_request_editor_compile', arguments: { timeoutSeconds: 60 } }).catch(() => undefined);
    const health = await waitFor(async () => {
      const h = (await registry.health()).unreal;
      return h.ok ? undefined : h;
    }, 'the busy editor to be reported');
    expect(health.message).toBe(
      `Unreal Editor at ${e.url} did not answer ping and tools/list within 1000 ms: is it busy (a modal dialog, a compile, a breakpoint)?`,
    );
    await e.stop();
    await compiling;
  });

  it('keeps the editor’s tools listed while it is closed, across an mcphost restart, and says to start it', async () => {
    const tmp = tempDir();
    const e = await replica();
    writeConfig(tmp.dir, { plugins: { unreal: { url: e.url, mode: 'unrealmcpserver' } } });
    const first = await serve(tmp.dir);
    const listed = (await whenListed(first.client, ['unreal_query_asset'])).map((t) => t.name);
    await e.stop();
    const down = `Unreal Editor not running at ${e.url}: start it with the UnrealMCPServer plugin enabled (connection refused)`;
    expect((await first.client.listTools()).tools.map((t) => t.name)).toEqual(listed);
    const call = await first.client.callTool({ name: 'unreal_query_asset', arguments: { assetPath: '/Game/X.X' } });
    expect(textOf(call)).toBe(down);
    expect(readdirSync(path.join(tmp.dir, '.cache/mcphost/unreal')).filter((f) => /^lists-.*\.json$/.test(f))).toHaveLength(1);

    // A new mcphost, the editor still closed: the tools are there at once, from the cache file.
    const second = await serve(tmp.dir);
    expect((await second.client.listTools()).tools.map((t) => t.name)).toEqual(listed);
    expect(textOf(await second.client.callTool({ name: 'unreal_get_project_config', arguments: {} }))).toBe(down);
    // A one-shot `mcphost call` says the same (not "unknown tool"), and `mcphost tools` learns it is down.
    const oneShot = callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'get_project_config', writeLog: () => undefined });
    await expect(oneShot).rejects.toMatchObject({ code: 'UNAVAILABLE', message: down });
    const { registry } = await openHost({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'], writeLog: () => undefined });
    try {
      expect(await registry.tools('unreal')).toEqual([]);
      expect(registry.host('unreal')!.lastError).toBe(down);
    } finally {
      await registry.close();
    }
  });
});

// The unreal plugin against the replica of Epic's Unreal MCP (UE 5.8; test/fixtures/unreal/
// epic-mcp-server.mjs cites what it follows): toolsets that register one by one after start-up,
// three meta-tools over them, tool calls one at a time on the game thread, and failures that come
// back as ordinary text. In-process through `mcphost serve` and `mcphost call`, and through the
// real binary (`serve --transport http` with a 2025-era and a 2026-era client, `call`, `doctor`).
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { doctorReport } from '../../../src/app/inspect.js';
import { isolatedEnv, runCli } from '../../helpers/cli.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { journalLines, textOf, waitFor, whenListed, writeConfig } from '../../upstream/helpers.js';
import { startEpic, type EpicOptions, type FakeEditor } from './fake-editor.js';

const editors: FakeEditor[] = [];
const sessions: InProcessSession[] = [];
const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await Promise.all(editors.splice(0).map((e) => e.stop()));
});

async function epic(options: EpicOptions = {}) {
  const e = await startEpic(options);
  editors.push(e);
  return e;
}

async function serve(dir: string) {
  const s = await serveInProcess({ cwd: dir });
  sessions.push(s);
  return s;
}

/** The replica's 15 tools of 8 toolsets, as mcphost publishes them. */
const ALL_FLAT = [
  'unreal_AgentSkillToolset_ListSkills',
  'unreal_AgentSkillToolset_GetSkills',
  'unreal_SceneTools_get_current_level',
  'unreal_SceneTools_load_level',
  'unreal_SceneTools_find_actors',
  'unreal_ObjectTools_get_properties',
  'unreal_ObjectTools_set_properties',
  'unreal_ProgrammaticToolset_get_execution_environment',
  'unreal_ProgrammaticToolset_execute_tool_script',
  'unreal_EditorAppToolset_IsPIERunning',
  'unreal_EditorAppToolset_CaptureViewport',
  'unreal_NiagaraToolset_Assets_GetAssetDiscoveryInfo',
  expect.stringMatching(/^unreal_NiagaraToolset_Blueprint_ConstructNiagaraBPWrapper_[0-9a-f]{6}$/),
  'unreal_SequencerControlRigTools_get_anim_mode_gizmo_scale',
  'unreal_SequencerControlRigTools_set_anim_mode_gizmo_scale',
];

const epicOnly = (url: string, extra: Record<string, unknown> = {}) => ({
  plugins: { unreal: { epicUrl: url, mode: 'epic', settleMs: 400, ...extra } },
});

const json = (result: { content?: unknown }) => JSON.parse(textOf(result));

describe('unreal against Epic’s Unreal MCP (replica)', () => {
  it('publishes each toolset’s tools as they register, until the list stops changing', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    // The editor has just started and registers a toolset every 0.8 s (5.6 s in all); the gaps stay
    // under settleMs (2 s), so the list counts as whole only once it is.
    const e = await epic({ journal, registerMs: 800 });
    writeConfig(tmp.dir, epicOnly(e.url, { settleMs: 2_000 }));
    const { client } = await serve(tmp.dir);
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
    const seen = new Set<number>();
    const tools = await waitFor(
      async () => {
        const { tools } = await client.listTools();
        seen.add(tools.length);
        return tools.length === ALL_FLAT.length ? tools : undefined;
      },
      'every toolset to be published',
      30_000,
    );
    expect(tools.map((t) => t.name)).toEqual(ALL_FLAT);
    // It grew: the first toolsets were published before the last one registered.
    expect([...seen].some((n) => n > 0 && n < ALL_FLAT.length)).toBe(true);
    expect(changes).toBeGreaterThanOrEqual(2);
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // Settled: the list stays the same, and the last toolset registered before it settled.
    await new Promise((r) => setTimeout(r, 600));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(journalLines(journal).filter((l) => l.startsWith('register'))).toHaveLength(8);

    const scene = tools.find((t) => t.name === 'unreal_SceneTools_find_actors') as Tool;
    expect(scene.description).toContain('Searches the scene for actors');
    expect(scene.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
    const found = await client.callTool({ name: 'unreal_SceneTools_find_actors', arguments: { name: 'sun' } });
    expect(json(found)).toEqual({ returnValue: [{ refPath: '/Game/Maps/Arena.Arena:PersistentLevel.Sun' }] });
    const raised = await client.callTool({ name: 'unreal_SceneTools_load_level', arguments: { level_path: '/Game/Nope' } });
    expect(raised).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Asset does not exist: /Game/Nope' }] });
    expect(journalLines(journal)).toContain('begin call_tool editor_toolset.toolsets.scene.SceneTools.find_actors');
  });

  it('marks the failures Epic’s server answers as ordinary text as errors, keeping its text', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 10 });
    writeConfig(tmp.dir, epicOnly(e.url));
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_EditorAppToolset_CaptureViewport', 'unreal_ProgrammaticToolset_execute_tool_script']);
    const script = "def run():\n    tools = execute_tool('SceneTools', 'get_current_level')\n    raise ValueError('no level loaded')";
    const traceback = await client.callTool({ name: 'unreal_ProgrammaticToolset_execute_tool_script', arguments: { script } });
    expect(traceback.isError).toBe(true);
    expect(textOf(traceback)).toBe(
      'Traceback (most recent call last):\n  File "<tool_script>", line 3, in run\nValueError: no level loaded',
    );
    const missing = await client.callTool({ name: 'unreal_EditorAppToolset_CaptureViewport', arguments: {} });
    expect(missing).toMatchObject({ isError: true, content: [{ text: 'input param "captureTransform" needs a default value' }] });
    const fine = await client.callTool({
      name: 'unreal_ProgrammaticToolset_execute_tool_script',
      arguments: { script: "return {'ok': 1}" },
    });
    expect(fine.isError).toBeFalsy();
    expect(json(fine)).toEqual({ returnValue: { ok: 1 } });

    // The editor itself sends both failures as successes: mcphost is what marks them.
    const direct = new Client({ name: 'direct', version: '1' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(e.url)));
    const raw = await direct.callTool({
      name: 'call_tool',
      arguments: { toolset_name: 'EditorToolset.EditorAppToolset', tool_name: 'CaptureViewport', arguments: {} },
    });
    expect(raw.isError).toBeFalsy();
    expect(textOf(raw)).toBe('input param "captureTransform" needs a default value');
    await direct.close();
  });

  it('passes Epic’s three meta-tools through with epicTools: meta, still queued and checked', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 10 });
    writeConfig(tmp.dir, epicOnly(e.url, { epicTools: 'meta' }));
    const { client } = await serve(tmp.dir);
    const tools = await whenListed(client, ['unreal_call_tool']);
    expect(tools.map((t) => t.name)).toEqual(['unreal_list_toolsets', 'unreal_describe_toolset', 'unreal_call_tool']);
    const listed = await client.callTool({ name: 'unreal_list_toolsets', arguments: {} });
    expect(textOf(listed)).toMatch(/^- ToolsetRegistry\.AgentSkillToolset: Provides tools/);
    const level = await client.callTool({
      name: 'unreal_call_tool',
      arguments: { toolset_name: 'editor_toolset.toolsets.scene.SceneTools', tool_name: 'get_current_level', arguments: {} },
    });
    expect(json(level)).toEqual({ returnValue: '/Game/Maps/Arena' });
    const unknown = await client.callTool({ name: 'unreal_describe_toolset', arguments: { toolset_name: 'Nope.NopeTools' } });
    expect(unknown).toMatchObject({ isError: true, content: [{ text: 'Unknown toolset: Nope.NopeTools' }] });
  });

  it('publishes only the toolsets epicToolsets names (full names, class names, globs)', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 10 });
    writeConfig(tmp.dir, epicOnly(e.url, { epicToolsets: ['SceneTools', 'ToolsetRegistry.*', 'Niagara*'] }));
    const { client } = await serve(tmp.dir);
    const tools = await whenListed(client, ['unreal_SceneTools_get_current_level', 'unreal_AgentSkillToolset_ListSkills']);
    await new Promise((r) => setTimeout(r, 600));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'unreal_AgentSkillToolset_ListSkills',
      'unreal_AgentSkillToolset_GetSkills',
      'unreal_SceneTools_get_current_level',
      'unreal_SceneTools_load_level',
      'unreal_SceneTools_find_actors',
      'unreal_NiagaraToolset_Assets_GetAssetDiscoveryInfo',
      expect.stringMatching(/^unreal_NiagaraToolset_Blueprint_/),
    ]);
    expect(tools.length).toBeGreaterThan(0);
  });

  it('mirrors the tools natively listed when tool search is off, renamed the same way and refreshed as they register', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 150, noToolSearch: true });
    writeConfig(tmp.dir, epicOnly(e.url));
    const { client } = await serve(tmp.dir);
    const tools = await waitFor(async () => {
      const { tools } = await client.listTools();
      return tools.length === ALL_FLAT.length ? tools : undefined;
    }, 'every tool to be listed');
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(ALL_FLAT));
    const gizmo = await client.callTool({ name: 'unreal_SequencerControlRigTools_set_anim_mode_gizmo_scale', arguments: { scale: 500 } });
    expect(json(gizmo)).toEqual({ returnValue: true });
    const read = await client.callTool({ name: 'unreal_SequencerControlRigTools_get_anim_mode_gizmo_scale', arguments: {} });
    expect(json(read)).toEqual({ returnValue: 150 });
  });

  it('answers `mcphost call` once the toolsets have registered, and from the list it remembered after that', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await epic({ journal, registerMs: 100 });
    writeConfig(tmp.dir, epicOnly(e.url, { settleMs: 1_500 }));
    // Called right after the editor started: the last toolset registers 0.7 s later, and the call waits for it.
    const first = await callInProcess({
      cwd: tmp.dir,
      plugin: 'unreal',
      tool: 'SequencerControlRigTools_get_anim_mode_gizmo_scale',
      args: {},
    });
    expect(first.error).toBeUndefined();
    expect(json(first.result)).toEqual({ returnValue: 0 });
    const described = journalLines(journal).filter((l) => l.startsWith('begin describe_toolset')).length;
    expect(described).toBe(8);
    // A later one-shot describes nothing again: the list is the one that settled, with the same descriptions.
    const again = await callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'SceneTools_get_current_level', args: {} });
    expect(json(again.result)).toEqual({ returnValue: '/Game/Maps/Arena' });
    expect(journalLines(journal).filter((l) => l.startsWith('begin describe_toolset'))).toHaveLength(described);
    // And through the real binary.
    const cli = await runCli(['call', 'unreal', 'SceneTools_find_actors', '--name', 'door'], { cwd: tmp.dir });
    expect(cli).toMatchObject({ exitCode: 0 });
    expect(JSON.parse(cli.stdout)).toEqual({ returnValue: [{ refPath: '/Game/Maps/Arena.Arena:PersistentLevel.FrontDoor' }] });
  });

  it('says what to start when Epic’s server is not running', async () => {
    const tmp = tempDir();
    const e = await epic();
    const url = e.url;
    await e.stop();
    editors.length = 0;
    writeConfig(tmp.dir, epicOnly(url));
    await expect(callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'SceneTools_get_current_level', args: {} })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: `Epic's Unreal MCP not running at ${url}: start the editor (UE 5.8+, plugins ModelContextProtocol and AllToolsets) and run ModelContextProtocol.StartServer in its console (connection refused)`,
    });
  });
});

describe('two clients of one mcphost', () => {
  it('reach the editor one call at a time, over HTTP in both eras (the editor records any overlap)', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await epic({ journal, registerMs: 10, callMs: 30 });
    writeConfig(tmp.dir, epicOnly(e.url));
    const server = await startHttp(['--plugins', 'unreal'], { cwd: tmp.dir });
    servers.push(server);
    const a = await server.connect('legacy');
    const b = await server.connect('modern');
    await whenListed(a, ['unreal_ProgrammaticToolset_execute_tool_script', 'unreal_SceneTools_get_current_level']);
    await whenListed(b, ['unreal_SceneTools_get_current_level']);
    const before = journalLines(journal).length;
    const calls = await Promise.all([
      a.callTool({ name: 'unreal_ProgrammaticToolset_execute_tool_script', arguments: { script: "sleep(300)\nreturn {'slept': 300}" } }),
      b.callTool({ name: 'unreal_SceneTools_get_current_level', arguments: {} }),
      a.callTool({ name: 'unreal_AgentSkillToolset_ListSkills', arguments: {} }),
      b.callTool({ name: 'unreal_EditorAppToolset_IsPIERunning', arguments: {} }),
    ]);
    expect(calls.map((c) => json(c))).toEqual([
      { returnValue: { slept: 300 } },
      { returnValue: '/Game/Maps/Arena' },
      { returnValue: { '/Game/Skills/LevelLayout.LevelLayout': 'How this project lays out and names its levels.' } },
      { returnValue: false },
    ]);
    const lines = journalLines(journal).slice(before);
    expect(lines.filter((l) => l.startsWith('overlap'))).toEqual([]);
    // Every request the editor saw (the four calls, and any listing a client's request caused
    // meanwhile) began after the one before it ended.
    const steps = lines.filter((l) => /^(begin|end) /.test(l));
    const first = steps.findIndex((l) => l.startsWith('begin'));
    steps.slice(first).forEach((l, i) => expect(l.startsWith(i % 2 === 0 ? 'begin' : 'end')).toBe(true));
    expect(steps.filter((l) => /^end call_tool /.test(l))).toHaveLength(4);

    // The same four calls from two clients straight to the editor do overlap: the replica sees it.
    const direct = await Promise.all(
      [0, 1].map(async () => {
        const c = new Client({ name: 'direct', version: '1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(e.url)));
        return c;
      }),
    );
    await Promise.all([
      direct[0].callTool({
        name: 'call_tool',
        arguments: {
          toolset_name: 'editor_toolset.toolsets.programmatic.ProgrammaticToolset',
          tool_name: 'execute_tool_script',
          arguments: { script: 'sleep(300)' },
        },
      }),
      direct[1].callTool({ name: 'list_toolsets', arguments: {} }),
    ]);
    expect(journalLines(journal).some((l) => l.startsWith('overlap'))).toBe(true);
    await Promise.all(direct.map((c) => c.close()));
  });

  it('gives up at a call’s timeout while it waits behind another, and the editor still sees one call at a time', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'editor.log');
    const e = await epic({ journal, registerMs: 10 });
    writeConfig(tmp.dir, epicOnly(e.url));
    const { client } = await serve(tmp.dir);
    await whenListed(client, ['unreal_ProgrammaticToolset_execute_tool_script']);
    const long = client.callTool({ name: 'unreal_ProgrammaticToolset_execute_tool_script', arguments: { script: 'sleep(800)' } });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const waiting = await client.callTool({
      name: 'unreal_SceneTools_get_current_level',
      arguments: {},
      _meta: { 'mcphost/timeoutMs': 200 },
    });
    expect(waiting.isError).toBe(true);
    expect(textOf(waiting)).toMatch(/timed out after 200 ms/);
    expect(Date.now() - started).toBeLessThan(700);
    expect(json(await long)).toEqual({ returnValue: {} });
    expect(journalLines(journal).filter((l) => l.startsWith('overlap'))).toEqual([]);
    // The call that gave up was never sent.
    expect(journalLines(journal).filter((l) => l === 'begin call_tool editor_toolset.toolsets.scene.SceneTools.get_current_level')).toEqual(
      [],
    );
  });
});

describe('both editor servers behind one backend', () => {
  it('auto uses both when both answer; doctor names each with its protocol and what it registered', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 10 });
    const { startEditor } = await import('./fake-editor.js');
    const ums = await startEditor({ real: true });
    editors.push(ums);
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl: e.url, url: ums.url, settleMs: 300 } } });
    const { client } = await serve(tmp.dir);
    const tools = await whenListed(client, ['unreal_query_asset', 'unreal_SceneTools_get_current_level']);
    expect(tools).toHaveLength(ALL_FLAT.length + 4);
    const asset = await client.callTool({ name: 'unreal_query_asset', arguments: { assetPath: '/Game/Maps/Arena.Arena' } });
    expect(asset.structuredContent).toMatchObject({ bExists: true });
    expect(json(await client.callTool({ name: 'unreal_SceneTools_get_current_level', arguments: {} }))).toEqual({
      returnValue: '/Game/Maps/Arena',
    });

    const doctor = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'] });
    expect(doctor.plugins[0]).toMatchObject({
      ok: true,
      message: `Epic's Unreal MCP is up at ${e.url} (protocol 2025-06-18): 8 toolsets, 15 tools registered (registration finished); UnrealMCPServer 0.1.0 (5.6.1) is up at ${ums.url} (protocol 2024-11-05, 4 tools)`,
    });
    // Through the real binary too.
    const cli = await runCli(['doctor', '--plugins', 'unreal'], { cwd: tmp.dir });
    expect(cli.exitCode).toBe(0);
    expect(cli.stdout).toContain(`Epic's Unreal MCP is up at ${e.url} (protocol 2025-06-18)`);
  });

  it('serves both through `mcphost serve --transport http` to a 2025-era and a 2026-era client, and `mcphost call` reaches both', async () => {
    const tmp = tempDir();
    const e = await epic({ registerMs: 10 });
    const { startEditor } = await import('./fake-editor.js');
    const ums = await startEditor({ real: true });
    editors.push(ums);
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl: e.url, url: ums.url, settleMs: 300 } } });
    const server = await startHttp(['--plugins', 'unreal'], { cwd: tmp.dir });
    servers.push(server);
    for (const era of ['legacy', 'modern'] as const) {
      const client = await server.connect(era);
      const tools = await whenListed(client, ['unreal_get_project_config', 'unreal_ObjectTools_get_properties']);
      expect(tools).toHaveLength(ALL_FLAT.length + 4);
      const config = await client.callTool({ name: 'unreal_get_project_config', arguments: {} });
      expect(config.structuredContent).toMatchObject({ engineVersion: { major: 5, minor: 6 } });
      const props = await client.callTool({
        name: 'unreal_ObjectTools_get_properties',
        arguments: { instance: { refPath: '/Game/Maps/Arena.Arena:PersistentLevel.Sun' }, properties: ['Intensity'] },
      });
      expect(json(props)).toEqual({ returnValue: '{"Intensity":10}' });
    }
    for (const [tool, out] of [
      ['get_project_config', /"engineVersion"/],
      ['AgentSkillToolset_ListSkills', /LevelLayout/],
    ] as const) {
      const cli = await runCli(['call', 'unreal', tool], { cwd: tmp.dir });
      expect(cli).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(out) });
    }
  });

  it('auto with only UnrealMCPServer running is healthy and says so; both is not, and names what is missing', async () => {
    const tmp = tempDir();
    const gone = await epic();
    const epicUrl = gone.url;
    await gone.stop();
    editors.length = 0;
    const { startEditor } = await import('./fake-editor.js');
    const ums = await startEditor({ real: true });
    editors.push(ums);
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl, url: ums.url } } });
    const auto = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'] });
    expect(auto.plugins[0]).toMatchObject({
      ok: true,
      message: `UnrealMCPServer 0.1.0 (5.6.1) is up at ${ums.url} (protocol 2024-11-05, 4 tools)`,
    });
    const called = await callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'get_project_config', args: {} });
    expect(called.error).toBeUndefined();

    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl, url: ums.url, mode: 'both' } } });
    const both = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'] });
    expect(both.plugins[0].ok).toBe(false);
    expect(both.plugins[0].message).toContain(`Epic's Unreal MCP not running at ${epicUrl}`);
    expect(both.plugins[0].message).toContain(`UnrealMCPServer 0.1.0 (5.6.1) is up at ${ums.url}`);

    // Neither running: the one answer names both, and what to start.
    await ums.stop();
    editors.length = 0;
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl, url: ums.url } } });
    await expect(callInProcess({ cwd: tmp.dir, plugin: 'unreal', tool: 'get_project_config', args: {} })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(
        /^Unreal Editor not reachable: Epic's Unreal MCP not running at .*ModelContextProtocol\.StartServer.*; Unreal Editor not running at .*UnrealMCPServer plugin/,
      ),
    });
  });
});

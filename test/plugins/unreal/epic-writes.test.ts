// Writing to the editor through Epic's Unreal MCP (replica: test/fixtures/unreal/epic-mcp-server.mjs):
// arguments brought to the editor's schema (`ObjectTools.set_properties` with `values` as an object),
// the consent question before a tool that may change the editor, the project's agent skills as
// prompts, and doctor saying whether registration finished.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { doctorReport } from '../../../src/app/inspect.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { hostInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { journalLines, textOf, waitFor, whenListed, writeConfig } from '../../upstream/helpers.js';
import { startEpic, type FakeEditor } from './fake-editor.js';

const editors: FakeEditor[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await Promise.all(editors.splice(0).map((e) => e.stop()));
});

const SUN = '/Game/Maps/Arena.Arena:PersistentLevel.Sun';
const json = (result: { content?: unknown }) => JSON.parse(textOf(result));

async function setup(extra: Record<string, unknown> = {}) {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'editor.log');
  const e = await startEpic({ journal, registerMs: 10 });
  editors.push(e);
  writeConfig(tmp.dir, { plugins: { unreal: { epicUrl: e.url, mode: 'epic', settleMs: 300, ...extra } } });
  const host = await hostInProcess({ cwd: tmp.dir });
  closers.push(host.close);
  return { tmp, e, journal, host };
}

/** A client that can be asked (elicitation), answering with `answers` in turn and recording each question. */
function asking(answers: Array<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> }>) {
  const asked: string[] = [];
  return {
    asked,
    setup: {
      options: { capabilities: { elicitation: { form: {} } } },
    },
    install(client: Client) {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return answers.shift() ?? { action: 'decline' };
      });
    },
  };
}

const getIntensity = async (client: Client) =>
  JSON.parse(
    json(
      await client.callTool({
        name: 'unreal_ObjectTools_get_properties',
        arguments: { instance: { refPath: SUN }, properties: ['Intensity'] },
      }),
    ).returnValue,
  ).Intensity;

describe('unreal: writes through Epic’s Unreal MCP', () => {
  it('sends an object given for set_properties’ JSON-string `values` as JSON, so it applies (the editor alone answers false)', async () => {
    const { e, host } = await setup();
    // The editor itself, asked with an object, answers false and changes nothing.
    const direct = new Client({ name: 'direct', version: '1' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(e.url)));
    const raw = await direct.callTool({
      name: 'call_tool',
      arguments: {
        toolset_name: 'editor_toolset.toolsets.object.ObjectTools',
        tool_name: 'set_properties',
        arguments: { instance: { refPath: SUN }, values: { Intensity: 42 } },
      },
    });
    expect(json(raw)).toEqual({ returnValue: false });
    await direct.close();

    const client = await host.connect();
    await whenListed(client, ['unreal_ObjectTools_set_properties', 'unreal_ObjectTools_get_properties']);
    expect(await getIntensity(client)).toBe(10);
    const set = await client.callTool({
      name: 'unreal_ObjectTools_set_properties',
      arguments: { instance: { refPath: SUN }, values: { Intensity: 42 } },
    });
    expect(json(set)).toEqual({ returnValue: true });
    expect(await getIntensity(client)).toBe(42);
    // A string is sent as it is (the schema's own form), and a property the editor lacks is still its false.
    const asText = await client.callTool({
      name: 'unreal_ObjectTools_set_properties',
      arguments: { instance: { refPath: SUN }, values: '{"Intensity": 7}' },
    });
    expect(json(asText)).toEqual({ returnValue: true });
    expect(await getIntensity(client)).toBe(7);
    const wrong = await client.callTool({
      name: 'unreal_ObjectTools_set_properties',
      arguments: { instance: { refPath: SUN }, values: { Nope: 1 } },
    });
    expect(json(wrong)).toEqual({ returnValue: false });
    // A string property that holds no JSON is not turned into JSON: the editor gets the object and says so.
    const level = await client.callTool({ name: 'unreal_SceneTools_load_level', arguments: { level_path: { path: '/Game/Maps/Lobby' } } });
    expect(level.isError).toBe(true);
  });

  it('asks a client that supports elicitation before a tool that may change the editor, and sends it only on accept', async () => {
    const { journal, host } = await setup();
    const ask = asking([
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { remember: false } },
      { action: 'accept', content: { remember: true } },
    ]);
    const client = await host.connect('legacy', ask.setup);
    ask.install(client);
    // Both tools it calls: Epic's toolsets register one after another.
    await whenListed(client, ['unreal_ObjectTools_set_properties', 'unreal_SequencerControlRigTools_set_anim_mode_gizmo_scale']);
    const write = () =>
      client.callTool({ name: 'unreal_ObjectTools_set_properties', arguments: { instance: { refPath: SUN }, values: { Intensity: 99 } } });
    const began = () =>
      journalLines(journal).filter((l) => l === 'begin call_tool editor_toolset.toolsets.object.ObjectTools.set_properties');

    const declined = await write();
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe(`ObjectTools.set_properties was not sent to the Unreal Editor: the user declined (on ${SUN})`);
    expect(textOf(await write())).toMatch(/the user dismissed the question/);
    expect(began()).toEqual([]);
    expect(ask.asked).toEqual([
      `Allow ObjectTools.set_properties on ${SUN} in the Unreal Editor? It may change the project, and the editor's MCP server cannot undo it.`,
      expect.any(String),
    ]);
    // Reads are never asked about.
    expect(await getIntensity(client)).toBe(10);
    expect(ask.asked).toHaveLength(2);

    expect(json(await write())).toEqual({ returnValue: true });
    expect(json(await write())).toEqual({ returnValue: true });
    expect(ask.asked).toHaveLength(4);
    // "Allow for the rest of this session" was ticked on the fourth: no more questions for this tool…
    expect(json(await write())).toEqual({ returnValue: true });
    expect(ask.asked).toHaveLength(4);
    expect(began()).toHaveLength(3);
    // …but another tool is asked about, and another client (its own session) is asked afresh.
    const gizmo = await client.callTool({ name: 'unreal_SequencerControlRigTools_set_anim_mode_gizmo_scale', arguments: { scale: 2 } });
    expect(gizmo.isError).toBe(true);
    expect(ask.asked[4]).toMatch(/^Allow SequencerControlRigTools\.set_anim_mode_gizmo_scale in the Unreal Editor\?/);
    const other = asking([{ action: 'decline' }]);
    const second = await host.connect('legacy', other.setup);
    other.install(second);
    expect(
      (await second.callTool({ name: 'unreal_ObjectTools_set_properties', arguments: { instance: { refPath: SUN }, values: '{}' } }))
        .isError,
    ).toBe(true);
    expect(other.asked).toHaveLength(1);
  });

  it('asks in meta mode too (call_tool names the tool), a 2026-era client as well; confirm: never does not ask', async () => {
    const { host } = await setup({ epicTools: 'meta' });
    const ask = asking([{ action: 'decline' }]);
    const client = await host.connect('modern', ask.setup);
    ask.install(client);
    await whenListed(client, ['unreal_call_tool']);
    const result = await client.callTool({
      name: 'unreal_call_tool',
      arguments: {
        toolset_name: 'editor_toolset.toolsets.scene.SceneTools',
        tool_name: 'load_level',
        arguments: { level_path: '/Game/Maps/Lobby' },
      },
    });
    expect(result.isError).toBe(true);
    expect(ask.asked).toEqual([
      expect.stringMatching(/^Allow editor_toolset\.toolsets\.scene\.SceneTools\.load_level on \/Game\/Maps\/Lobby/),
    ]);

    const never = await setup({ confirm: 'never' });
    const quiet = asking([]);
    const c2 = await never.host.connect('legacy', quiet.setup);
    quiet.install(c2);
    await whenListed(c2, ['unreal_ObjectTools_set_properties']);
    const set = await c2.callTool({
      name: 'unreal_ObjectTools_set_properties',
      arguments: { instance: { refPath: SUN }, values: { Intensity: 3 } },
    });
    expect(json(set)).toEqual({ returnValue: true });
    expect(quiet.asked).toEqual([]);
  });

  it('asks before UnrealMCPServer’s tools that may change the editor too (execute_console_command), not before its reads', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'ums.log');
    const { startEditor } = await import('./fake-editor.js');
    const ums = await startEditor({ real: true, journal });
    editors.push(ums);
    writeConfig(tmp.dir, { plugins: { unreal: { url: ums.url, mode: 'unrealmcpserver' } } });
    const host = await hostInProcess({ cwd: tmp.dir });
    closers.push(host.close);
    const ask = asking([{ action: 'decline' }]);
    const client = await host.connect('legacy', ask.setup);
    ask.install(client);
    await whenListed(client, ['unreal_execute_console_command', 'unreal_query_asset']);
    const declined = await client.callTool({ name: 'unreal_execute_console_command', arguments: { command: 'stat fps' } });
    expect(textOf(declined)).toBe('execute_console_command was not sent to the Unreal Editor: the user declined');
    expect(journalLines(journal)).not.toContain('/mcp tools/call execute_console_command');
    const read = await client.callTool({ name: 'unreal_query_asset', arguments: { assetPath: '/Game/Maps/Arena.Arena' } });
    expect(read.isError).toBeFalsy();
    expect(ask.asked).toHaveLength(1);
  });

  it('publishes the project’s agent skills as prompts, their instructions read from the editor', async () => {
    const { host } = await setup();
    const client = await host.connect();
    await whenListed(client, ['unreal_AgentSkillToolset_ListSkills']);
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'unreal_skill_LevelLayout',
        title: 'LevelLayout',
        description: expect.stringContaining('How this project lays out and names its levels.'),
      }),
    ]);
    const got = await client.getPrompt({ name: 'unreal_skill_LevelLayout', arguments: {} });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'How this project lays out and names its levels. Levels live under /Game/Maps.' } },
    ]);
  });

  it('doctor says the toolsets finished registering once the list stopped changing, and “so far” while it has not', async () => {
    const tmp = tempDir();
    const done = await startEpic({ registerMs: 10 });
    editors.push(done);
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl: done.url, mode: 'epic', settleMs: 300 } } });
    const finished = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'] });
    expect(finished.plugins[0]).toMatchObject({
      ok: true,
      message: `Epic's Unreal MCP is up at ${done.url} (protocol 2025-06-18): 8 toolsets, 15 tools registered (registration finished)`,
    });
    // Serving (what /health reports): "so far" until the list settles, then "finished".
    const host = await hostInProcess({ cwd: tmp.dir });
    closers.push(host.close);
    const client = await host.connect();
    await whenListed(client, ['unreal_ObjectTools_set_properties']);
    const served = await waitFor(async () => {
      const h = (await host.registry.health()).unreal;
      return h.message?.endsWith('(registration finished)') ? h : undefined;
    }, 'serve’s health to see registration finish');
    expect(served.detail).toMatchObject({ epic: { registration: 'finished', settled: true, toolsets: 8, tools: 15 } });
    // An editor still registering (a toolset every 3 s, past doctor's wait): it says so.
    const slow = await startEpic({ registerMs: 3_000 });
    editors.push(slow);
    writeConfig(tmp.dir, { plugins: { unreal: { epicUrl: slow.url, mode: 'epic', settleMs: 2_000, readyTimeoutMs: 1_000 } } });
    const partial = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir), plugins: ['unreal'] });
    expect(partial.plugins[0].message).toMatch(/: 1 toolsets, 2 tools registered so far \(still changing when the wait ended\)$/);
  });
});

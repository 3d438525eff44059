// The pieces of the Epic leg on their own: published names, reading list_toolsets and
// describe_toolset answers, the failure patterns, and the editor's queue.
import { describe, expect, it } from 'vitest';
import { assignToolsetNames, flatName } from '../../../plugins/unreal/epic/names.js';
import { parseDescription, parseToolsetList } from '../../../plugins/unreal/epic/toolsets.js';
import { FAILURES, failureOf, honest } from '../../../plugins/unreal/epic/failures.js';
import { EditorQueue } from '../../../plugins/unreal/editor-queue.js';

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

describe('published names', () => {
  it('are unreal_<Class>_<tool>, valid for MCP and for the 64-character model APIs, the same on every run', () => {
    // The longest toolset and tool names of UE 5.8.0 (tc-imba/ue-official-mcp probes/5.8.0.json).
    const cases: Array<[string, string]> = [
      ['editor_toolset.toolsets.scene.SceneTools', 'editor_toolset.toolsets.scene.SceneTools.get_current_level'],
      [
        'animation_toolset.toolsets.controlrig_sequencer.SequencerControlRigTools',
        'animation_toolset.toolsets.controlrig_sequencer.SequencerControlRigTools.get_actor_transform_at_frame',
      ],
      ['DataflowAgent.DataflowAgentToolset', 'DataflowAgent.DataflowAgentToolset.CreateDataflowCompatibleAssetFromTemplate'],
      ['NiagaraToolsets.NiagaraToolset_Blueprint', 'NiagaraToolsets.NiagaraToolset_Blueprint.ConstructNiagaraBPWrapperFromComponent'],
      ['NiagaraToolsets.NiagaraToolset_Blueprint', 'NiagaraToolsets.NiagaraToolset_Blueprint.ConstructNiagaraBPWrapperFromSystem'],
    ];
    const names = new Map<string, string>();
    assignToolsetNames(
      cases.map(([t]) => t),
      names,
    );
    const published = cases.map(([toolset, tool]) => `unreal_${flatName(names.get(toolset)!, toolset, tool)}`);
    expect(published.slice(0, 2)).toEqual([
      'unreal_SceneTools_get_current_level',
      'unreal_SequencerControlRigTools_get_actor_transform_at_frame',
    ]);
    for (const name of published) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // Cut to 64 with a hash of the full name: two long names with one prefix stay apart, and stay put.
    expect(published[2]).toMatch(/^unreal_DataflowAgentToolset_CreateDataflowCompatibleAsset_[0-9a-f]{6}$/);
    expect(published[3]).not.toBe(published[4]);
    expect(`unreal_${flatName('NiagaraToolset_Blueprint', cases[3][0], cases[3][1])}`).toBe(published[3]);
  });

  it('tell two toolsets of one class name apart, and keep the name the first one got', () => {
    const names = assignToolsetNames(['EditorToolset.SceneTools'], new Map());
    assignToolsetNames(['editor_toolset.toolsets.scene.SceneTools', 'EditorToolset.SceneTools'], names);
    expect(names.get('EditorToolset.SceneTools')).toBe('SceneTools');
    expect(names.get('editor_toolset.toolsets.scene.SceneTools')).toMatch(/^SceneTools_[0-9a-f]{4}$/);
  });
});

describe('reading the meta-tools', () => {
  it('takes toolsets from list_toolsets, and a prose bullet inside a description for part of it', () => {
    const listed = parseToolsetList(
      [
        '- ToolsetRegistry.AgentSkillToolset: Provides tools for listing, reading, and creating/updating skills.',
        '- NiagaraToolsets.NiagaraToolset_Assets: Niagara Toolset for discovery of Niagara script assets.',
        '',
        'Provides:',
        '- GetAssetDiscoveryInfo: project-configured asset discovery groups',
        '- editor_toolset.toolsets.scene.SceneTools: Provides tools for working with the currently loaded level, including',
        '    loading levels.',
      ].join('\n'),
    );
    expect(listed.map((t) => t.name)).toEqual([
      'ToolsetRegistry.AgentSkillToolset',
      'NiagaraToolsets.NiagaraToolset_Assets',
      'editor_toolset.toolsets.scene.SceneTools',
    ]);
    expect(listed[1].description).toContain('- GetAssetDiscoveryInfo: project-configured');
    expect(listed[2].description).toBe('Provides tools for working with the currently loaded level, including\n    loading levels.');
  });

  it('reads describe_toolset from JSON text or structured content, and refuses anything else', () => {
    const described = { name: 'A.B', version: '1.0', tools: [{ name: 'A.B.c', inputSchema: { type: 'object' } }] };
    expect(parseDescription(text(JSON.stringify(described)))).toMatchObject({ name: 'A.B', tools: [{ name: 'A.B.c' }] });
    expect(parseDescription({ content: [], structuredContent: described })).toMatchObject({ tools: [{ name: 'A.B.c' }] });
    expect(parseDescription(text('Unknown toolset: A.B'))).toBeUndefined();
    expect(parseDescription({ ...text(JSON.stringify(described)), isError: true })).toBeUndefined();
  });
});

describe('failures answered as text', () => {
  it('are marked isError with the editor’s own text; anything else is left as it came', () => {
    for (const [answer, id] of [
      ['Traceback (most recent call last):\n  File "<tool_script>", line 2, in run\nKeyError: x', 'python-traceback'],
      ['input param "annotations" needs a default value', 'missing-parameter'],
      ['Unknown toolset: Nope.Tools', 'unknown-toolset'],
    ] as const) {
      expect(failureOf(text(answer))?.id).toBe(id);
      expect(honest(text(answer))).toMatchObject({ isError: true, content: [{ text: answer }] });
    }
    expect(FAILURES.every((f) => f.source.length > 0)).toBe(true);
    const ok = text('{"returnValue":"Traceback (most recent call last): is a string here"}');
    expect(honest(ok)).toBe(ok);
  });
});

describe('the editor queue', () => {
  it('runs one call at a time, lets a waiting caller give up at once, and keeps a begun call’s place', async () => {
    const queue = new EditorQueue();
    const log: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      log.push(`begin ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      return name;
    };
    const first = new AbortController();
    const a = queue.run('a', first.signal, slow('a', 150));
    await new Promise((r) => setTimeout(r, 5));
    const waiting = new AbortController();
    const messages: string[] = [];
    const b = queue.run('b', waiting.signal, slow('b', 10), (p) => messages.push(p.message ?? ''));
    const c = queue.run('c', new AbortController().signal, slow('c', 10));
    expect(messages[0]).toMatch(/^waiting for the editor: a is running/);
    waiting.abort(new Error('gave up'));
    await expect(b).rejects.toThrow('gave up');
    // The caller of a gives up too, but a has begun: c waits until a is done.
    first.abort(new Error('timeout'));
    await expect(a).rejects.toThrow('timeout');
    expect(await c).toBe('c');
    expect(log).toEqual(['begin a', 'end a', 'begin c', 'end c']);
  });
});

// The godot plugin through the real MCP server path in-process (config → loader → registry → MCP
// server), spoken to by the official SDK client over the in-memory transport: every tool, resource
// template and the prompt, errors and path guards. The real binary is exercised by the stdio and
// HTTP smokes beside this file.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.ts';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { textResource } from '../../helpers/resource.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { DOC4 } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

const tmp = tempDir('godot-tools-');
const env = isolatedEnv(tmp.dir, { GODOT_DOC_DIR: DOC4 });
let session: InProcessSession;

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await session.client.callTool({ name, arguments: args })) as ToolResult;
}

const json = (r: ToolResult) => JSON.parse(r.content[0].text!);

beforeAll(async () => {
  session = await serveInProcess({ cwd: tmp.dir, plugins: ['godot'], env });
});
afterAll(async () => {
  await session?.close();
});

describe('godot through the MCP server (in-process, SDK client)', () => {
  it('publishes exactly the five tools, three resource templates and the prompt', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'godot_check_api',
      'godot_get_class',
      'godot_get_symbol',
      'godot_list_classes',
      'godot_search',
    ]);
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
    const search = tools.find((t) => t.name === 'godot_search')!;
    expect(Object.keys((search.inputSchema as { properties: object }).properties).sort()).toEqual(['guesses', 'kind', 'limit', 'query']);
    expect(search.description).toMatch(/guesses/);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'godot://class/{name}',
      'godot://search{?q,kind}',
      'godot://symbol/{className}/{kind}/{name}',
    ]);
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['godot_how_to_use_godot_docs']);
  });

  it('godot_search returns [{uri, name, kind, score, snippet}] with qualified names', async () => {
    const results = json(await call('godot_search', { query: 'move a character with collisions', limit: 5 }));
    expect(results.length).toBe(5);
    const slide = results.find((r: { name: string }) => r.name === 'CharacterBody2D.move_and_slide');
    expect(slide).toMatchObject({ kind: 'method', uri: 'godot://symbol/CharacterBody2D/method/move_and_slide' });
    expect(typeof slide.score).toBe('number');
    expect(slide.snippet).toMatch(/\*\*\w+\*\*/);
    const signals = json(await call('godot_search', { query: 'pressed', kind: 'signal' }));
    expect(signals.every((r: { kind: string }) => r.kind === 'signal')).toBe(true);
  });

  it('godot_get_class returns the class with its inheritance chain and members', async () => {
    const r = await call('godot_get_class', { name: 'CharacterBody2D' });
    const doc = r.structuredContent!;
    expect(doc.name).toBe('CharacterBody2D');
    expect(doc.inherits).toBe('PhysicsBody2D');
    expect(doc.inheritanceChain).toEqual([
      'CharacterBody2D',
      'PhysicsBody2D',
      'CollisionObject2D',
      'Node2D',
      'CanvasItem',
      'Node',
      'Object',
    ]);
    expect(doc.methods.find((m: { name: string }) => m.name === 'move_and_slide').signature).toBe('move_and_slide() -> bool');
    for (const key of ['brief', 'description', 'methods', 'properties', 'signals', 'constants']) expect(doc).toHaveProperty(key);
    expect(json(r)).toEqual(doc);
  });

  it('godot_get_symbol resolves inherited members and says so', async () => {
    const doc = (await call('godot_get_symbol', { qname: 'CharacterBody2D.add_child' })).structuredContent!;
    expect(doc).toMatchObject({ kind: 'method', className: 'Node', name: 'add_child', qname: 'Node.add_child' });
    expect(doc.note).toMatch(/CharacterBody2D\.add_child is inherited/);
    const signal = (await call('godot_get_symbol', { qname: 'Button.pressed' })).structuredContent!;
    expect(signal).toMatchObject({ kind: 'signal', className: 'BaseButton' });
    const x = (await call('godot_get_symbol', { qname: 'Vector2.x' })).structuredContent!;
    expect(x).toMatchObject({ kind: 'property', className: 'Vector2', signature: 'x: float = 0.0' });
  });

  it('godot_list_classes lists names, by prefix and limit', async () => {
    expect(json(await call('godot_list_classes', { prefix: 'node' }))).toEqual(['Node', 'Node2D']);
    const all = json(await call('godot_list_classes', {}));
    expect(all).toContain('@GDScript');
    expect(all.length).toBe(18);
    expect(json(await call('godot_list_classes', { limit: 2 })).length).toBe(2);
  });

  it('godot_check_api checks calls and code', async () => {
    const report = (
      await call('godot_check_api', {
        calls: ['KinematicBody2D.move_and_slide(v)', 'Node2D.look_at(target)'],
        code: 'extends Node\nfunc _ready():\n\tadd_chlid(null)\n',
      })
    ).structuredContent!;
    expect(report).toMatchObject({ ok: false, checked: 4, problems: 2 });
    expect(report.results[0].suggestions[0]).toBe('CharacterBody2D');
    expect(report.results[1]).toMatchObject({ exists: true, qname: 'Node2D.look_at' });
    expect(report.results.find((x: { ref: string }) => x.ref === 'add_chlid(…)').suggestions).toContain('Node.add_child');
    const none = await call('godot_check_api', {});
    expect(none.isError).toBe(true);
    expect(none.content[0].text).toMatch(/calls/);
  });

  it('answers unknown names with NOT_FOUND and a did-you-mean list', async () => {
    const r = await call('godot_get_class', { name: 'CharacterBody2E' });
    expect(r.isError).toBe(true);
    expect(r._meta!['mcphost/error']).toMatchObject({
      code: 'NOT_FOUND',
      data: { suggestions: expect.arrayContaining(['CharacterBody2D']) },
    });
    const m = await call('godot_get_symbol', { qname: 'Node.add_chlid' });
    expect(m._meta!['mcphost/error']).toMatchObject({
      code: 'NOT_FOUND',
      data: { suggestions: expect.arrayContaining(['Node.add_child']) },
    });
  });

  it('answers a Godot 3 name with its Godot 4 successor and what changed', async () => {
    const cls = await call('godot_get_class', { name: 'KinematicBody2D' });
    expect(cls.isError).toBeFalsy();
    expect(cls.structuredContent).toMatchObject({
      name: 'CharacterBody2D',
      godot3: { name: 'KinematicBody2D', change: 'renamed', godot4: 'CharacterBody2D' },
      note: expect.stringMatching(/Godot 3 name of CharacterBody2D/),
    });
    const sym = await call('godot_get_symbol', { qname: 'KinematicBody2D.move_and_slide' });
    expect(sym.structuredContent).toMatchObject({
      qname: 'CharacterBody2D.move_and_slide',
      signature: 'move_and_slide() -> bool',
      godot3: { change: 'changed', signature: expect.stringMatching(/^move_and_slide\(linear_velocity: Vector2/) },
    });
  });

  it('refuses bad arguments naming the field', async () => {
    const r = await call('godot_search', { query: 'x', kind: 'bogus' });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/kind/);
    const path = await call('godot_get_class', { name: '../../etc/passwd' });
    expect(path._meta!['mcphost/error'].code).toBe('INVALID_ARGUMENT');
  });

  it('serves the class, symbol and search resources', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('godot://class/Node2D');
    const cls = textResource((await session.client.readResource({ uri: 'godot://class/Node2D' })).contents);
    expect(cls.mimeType).toBe('text/markdown');
    expect(cls.text).toMatch(/^# Node2D\n\n\*Inherits:\* \[CanvasItem\]\(godot:\/\/class\/CanvasItem\)/);
    expect(cls.text).toContain('### [`look_at(point: Vector2) -> void`](godot://symbol/Node2D/method/look_at)');
    const sym = textResource((await session.client.readResource({ uri: 'godot://symbol/CharacterBody2D/method/add_child' })).contents);
    expect(sym.text).toMatch(/^# Node\.add_child \(method\)/);
    expect(sym.text).toContain('inherited');
    const found = textResource((await session.client.readResource({ uri: 'godot://search?q=countdown%20timer&kind=class' })).contents);
    expect(found.mimeType).toBe('application/json');
    expect(JSON.parse(found.text)[0]).toMatchObject({ name: 'Timer', kind: 'class' });
    const global = textResource((await session.client.readResource({ uri: 'godot://class/@GlobalScope' })).contents);
    expect(global.text).toMatch(/^# @GlobalScope/);
  });

  it('completes class names in the resource templates', async () => {
    const r = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'godot://class/{name}' },
      argument: { name: 'name', value: 'Node' },
    });
    expect(r.completion.values).toEqual(['Node', 'Node2D']);
  });

  it('refuses resource URIs that try to leave the reference, and keeps serving', async () => {
    for (const uri of [
      'godot://class/..%2F..%2Fetc%2Fpasswd',
      'godot://class/%2Fetc%2Fpasswd',
      'godot://class/a%00b',
      'godot://symbol/Node/method/..%2F..%2Fx',
      'godot://symbol/Node/bogus/x',
      `godot://class/${'A'.repeat(300)}`,
    ]) {
      await expect(session.client.readResource({ uri }), uri).rejects.toThrow(/Invalid|kind must be|longer than/);
    }
    expect(json(await call('godot_list_classes', { prefix: 'Timer' }))).toEqual(['Timer']);
  });

  it('serves the how_to_use_godot_docs prompt', async () => {
    const plain = await session.client.getPrompt({ name: 'godot_how_to_use_godot_docs' });
    const text = (plain.messages[0].content as { text: string }).text;
    expect(text).toMatch(/godot_search/);
    expect(text).toMatch(/godot_get_symbol/);
    expect(text).toMatch(/godot_check_api/);
    const withTask = await session.client.getPrompt({ name: 'godot_how_to_use_godot_docs', arguments: { task: 'make a jump' } });
    expect((withTask.messages[0].content as { text: string }).text).toContain('make a jump');
  });
});

describe('godot with a bad doc folder', () => {
  it('answers every call with UNAVAILABLE naming the folder and the fix, and keeps running', async () => {
    const missing = path.join(tmp.dir, 'no-such-doc');
    const bad = await serveInProcess({ cwd: tmp.dir, plugins: ['godot'], env: isolatedEnv(tmp.dir, { GODOT_DOC_DIR: missing }) });
    try {
      for (let i = 0; i < 2; i++) {
        const r = (await bad.client.callTool({ name: 'godot_search', arguments: { query: 'timer' } })) as ToolResult;
        expect(r.isError).toBe(true);
        expect(r._meta!['mcphost/error'].code).toBe('UNAVAILABLE');
        expect(r.content[0].text).toContain(missing);
        expect(r.content[0].text).toMatch(/GODOT_DOC_DIR/);
      }
    } finally {
      await bad.close();
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { checkCalls, checkCode, parseCallText } from '../../../plugins/godot/lookup/check-api.ts';
import { blankNonCode, countArgs, scanGdscript } from '../../../plugins/godot/lookup/gdscript.ts';
import { DOC4, fixtureIndex } from './helpers.ts';

let index: DocIndex;
beforeAll(async () => {
  index = await fixtureIndex(DOC4);
});

describe('check_api with calls', () => {
  it('confirms real API with its signature, resolving inherited members', () => {
    const r = checkCalls(index, ['CharacterBody2D.add_child(node)', 'Vector2.ZERO', 'Timer', 'Timer.new()', 'lerp(a, b, 0.5)']);
    expect(r).toMatchObject({ ok: true, checked: 5, problems: 0 });
    expect(r.results[0]).toMatchObject({
      exists: true,
      kind: 'method',
      qname: 'Node.add_child',
      uri: 'godot://symbol/Node/method/add_child',
    });
    expect(r.results[0].signature).toMatch(/^add_child\(node: Node/);
    expect(r.results[1]).toMatchObject({ exists: true, kind: 'constant', signature: 'ZERO = Vector2(0, 0)' });
    expect(r.results[2]).toMatchObject({ exists: true, kind: 'class', uri: 'godot://class/Timer' });
    expect(r.results[4]).toMatchObject({ exists: true, qname: '@GlobalScope.lerp' });
  });

  it('names the Godot 4 successor of a Godot 3 class or member', () => {
    const r = checkCalls(index, ['KinematicBody2D.move_and_slide(velocity)', 'PackedScene.instance()']);
    expect(r.ok).toBe(false);
    expect(r.results[0]).toMatchObject({ exists: false, problem: expect.stringMatching(/renamed to CharacterBody2D/) });
    expect(r.results[0].suggestions![0]).toBe('CharacterBody2D');
    expect(r.results[1]).toMatchObject({ exists: false, problem: expect.stringMatching(/renamed to PackedScene\.instantiate/) });
  });

  it('reports wrong argument counts with the real signature', () => {
    const [slide, start] = checkCalls(index, ['CharacterBody2D.move_and_slide(velocity, Vector2.UP)', 'Timer.start(1.0, 2, 3)']).results;
    expect(slide).toMatchObject({
      exists: true,
      problem: 'CharacterBody2D.move_and_slide takes 0 arguments, 2 given: move_and_slide() -> bool',
    });
    expect(start.problem).toMatch(/takes 0 to 1 arguments, 3 given/);
  });

  it('suggests the closest member, and says when a signal is called like a method', () => {
    const [typo, signal, caseWrong] = checkCalls(index, ['Node2D.look_att(target)', 'Timer.timeout()', 'node2d']).results;
    expect(typo).toMatchObject({ exists: false });
    expect(typo.suggestions![0]).toBe('Node2D.look_at');
    expect(signal.problem).toMatch(/is a signal, not a method.*emit/);
    expect(caseWrong.suggestions).toContain('Node2D');
  });

  it('parses reference texts', () => {
    expect(parseCallText('Input.is_action_pressed("jump", true)')).toEqual({
      text: 'Input.is_action_pressed("jump", true)',
      cls: 'Input',
      member: 'is_action_pressed',
      args: 2,
    });
    expect(parseCallText('Node2D')).toEqual({ text: 'Node2D', cls: 'Node2D' });
    expect(parseCallText('print()')).toEqual({ text: 'print()', member: 'print', args: 0 });
  });
});

describe('check_api with code', () => {
  const script = [
    'extends KinematicBody2D',
    '# a comment mentioning Fake.api()',
    '@export var speed: float = 200.0',
    '@onready var timer: Timer = $Timer',
    'var label := "Sprite.new()"',
    'func _physics_process(delta: float) -> void:',
    '\tvelocity = move_and_slide(velocity, Vector2.UP)',
    '\tif Input.is_action_pressed("jump"):',
    '\t\ttimer.start(1.0)',
    '\t\ttimer.strat()',
    '\tyield(get_tree().create_timer(1.0), "timeout")',
    '\tadd_child(Node2D.new())',
  ].join('\n');

  it('finds the engine API a GDScript snippet uses, with line numbers', () => {
    const { refs, base } = scanGdscript(script);
    expect(base).toBe('KinematicBody2D');
    const texts = refs.map((r) => `${r.line}:${r.text}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        '1:extends KinematicBody2D',
        '3:@export',
        '4:Timer',
        '7:Vector2.UP',
        '8:Input.is_action_pressed(…)',
        '9:timer.start(…)',
        '12:Node2D.new()',
      ]),
    );
    expect(texts.some((t) => t.includes('Fake') || t.includes('Sprite'))).toBe(false);
    expect(refs.find((r) => r.text === 'timer.start(…)')).toMatchObject({ cls: 'Timer', member: 'start', args: 1, via: 'timer: Timer' });
  });

  it('flags what does not exist in Godot 4, checking the script body against the successor class', async () => {
    const r = await checkCode(index, script);
    const by = (text: string) => r.results.find((x) => x.ref === text)!;
    expect(r.ok).toBe(false);
    expect(by('extends KinematicBody2D')).toMatchObject({ exists: false, problem: expect.stringMatching(/renamed to CharacterBody2D/) });
    expect(by('move_and_slide(…)')).toMatchObject({
      exists: true,
      qname: 'CharacterBody2D.move_and_slide',
      problem: expect.stringMatching(/takes 0 arguments, 2 given/),
    });
    expect(by('timer.strat(…)')).toMatchObject({ exists: false, suggestions: expect.arrayContaining(['Timer.start']) });
    expect(by('yield(…)')).toMatchObject({ exists: false });
    expect(by('timer.start(…)')).toMatchObject({ exists: true, line: 9 });
    expect(by('add_child(…)')).toMatchObject({ exists: true, qname: 'Node.add_child' });
    expect(by('@export')).toMatchObject({ exists: true, kind: 'annotation' });
    expect(r.problems).toBe(r.results.filter((x) => !x.exists || x.problem).length);
  });

  it('passes a correct Godot 4 script', async () => {
    const ok = [
      'extends CharacterBody2D',
      'func _physics_process(delta):',
      '\tvelocity.y += 10.0',
      '\tmove_and_slide()',
      '\tif is_on_floor():',
      '\t\tprint("landed")',
    ].join('\n');
    const r = await checkCode(index, ok);
    expect(r.results.filter((x) => !x.exists || x.problem)).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('blanks strings, comments and node paths but keeps offsets', () => {
    const code = 'a = "x.y()" # Foo.bar()\nb = $Path/To.thing';
    const blank = blankNonCode(code);
    expect(blank.length).toBe(code.length);
    expect(blank).not.toMatch(/Foo|x\.y|Path/);
    expect(countArgs('f(a, g(b, c), [d, e])', 1)).toBe(3);
    expect(countArgs('f()', 1)).toBe(0);
  });
});

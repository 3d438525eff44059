import { beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ToolError } from '../../../src/backend/index.ts';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { resolveClass, resolveSymbol } from '../../../plugins/godot/lookup/resolve.ts';
import { classDoc } from '../../../plugins/godot/view/class-doc.ts';
import { symbolDoc } from '../../../plugins/godot/view/symbol-doc.ts';
import { DOC4, fixtureIndex } from './helpers.ts';

let index: DocIndex;
beforeAll(async () => {
  index = await fixtureIndex(DOC4);
});

function notFound(fn: () => unknown): NotFoundError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(NotFoundError);
    return error as NotFoundError;
  }
  throw new Error('expected NOT_FOUND');
}

describe('classes', () => {
  it('resolves exact names, and names that differ only in case', () => {
    expect(index.classes[resolveClass(index, 'Node2D')].name).toBe('Node2D');
    expect(index.classes[resolveClass(index, 'characterbody2d')].name).toBe('CharacterBody2D');
  });

  it('builds the GodotClassDoc with its inheritance chain', () => {
    const doc = classDoc(index, resolveClass(index, 'CharacterBody2D'));
    expect(doc.inheritanceChain).toEqual([
      'CharacterBody2D',
      'PhysicsBody2D',
      'CollisionObject2D',
      'Node2D',
      'CanvasItem',
      'Node',
      'Object',
    ]);
    expect(doc).toMatchObject({ name: 'CharacterBody2D', inherits: 'PhysicsBody2D', uri: 'godot://class/CharacterBody2D' });
    expect(doc.brief).toMatch(/\S/);
    const slide = doc.methods.find((m) => m.name === 'move_and_slide')!;
    expect(slide.signature).toBe('move_and_slide() -> bool');
    expect(doc.properties.find((p) => p.name === 'velocity')!.signature).toBe('velocity: Vector2 = Vector2(0, 0)');
    // A chain stops at a parent that is not in the doc folder (Control is not in the fixtures).
    expect(classDoc(index, resolveClass(index, 'Button')).inheritanceChain).toEqual(['Button', 'BaseButton']);
  });

  it('lists theme items, annotations, constructors and operators only where a class has them', () => {
    const button = classDoc(index, resolveClass(index, 'Button'));
    expect(button.themeItems?.color).toContain('font_color');
    expect(button.themeItemDetails?.find((t) => t.name === 'font_color')).toMatchObject({ dataType: 'color', type: 'Color' });
    expect(classDoc(index, resolveClass(index, 'Node')).themeItems).toBeUndefined();
    const gd = classDoc(index, resolveClass(index, '@GDScript'));
    expect(gd.annotations).toContain('@export_range');
    expect(gd.annotationDetails?.some((a) => a.signature.startsWith('@export_range(min: float'))).toBe(true);
    const v = classDoc(index, resolveClass(index, 'Vector2'));
    expect(v.constructors?.length).toBeGreaterThan(0);
    expect(v.operators?.length).toBeGreaterThan(0);
  });

  it('answers an unknown class with NOT_FOUND and suggestions (edit distance, prefix, Godot 3 renames)', () => {
    const typo = notFound(() => resolveClass(index, 'Nod2D'));
    expect(typo.code).toBe('NOT_FOUND');
    expect((typo.data as { suggestions: string[] }).suggestions).toContain('Node2D');
    const prefix = notFound(() => resolveClass(index, 'CharacterBo'));
    expect((prefix.data as { suggestions: string[] }).suggestions[0]).toBe('CharacterBody2D');
    const renamed = notFound(() => resolveClass(index, 'KinematicBody2D'));
    expect(renamed.message).toMatch(/renamed to CharacterBody2D/);
    expect((renamed.data as { suggestions: string[] }).suggestions[0]).toBe('CharacterBody2D');
  });
});

describe('symbols', () => {
  it('resolves methods, properties, signals and constants by Class.member', () => {
    expect(resolveSymbol(index, 'Node._ready')).toMatchObject({ kind: 'method', name: '_ready' });
    expect(resolveSymbol(index, 'Vector2.x')).toMatchObject({ kind: 'property', name: 'x' });
    expect(resolveSymbol(index, 'Timer.timeout')).toMatchObject({ kind: 'signal' });
    expect(resolveSymbol(index, 'Vector2.ZERO')).toMatchObject({ kind: 'constant' });
    expect(resolveSymbol(index, 'Node2D.look_at()')).toMatchObject({ kind: 'method', name: 'look_at' });
  });

  it('resolves inherited members to their declaring class and says so', () => {
    const doc = symbolDoc(index, resolveSymbol(index, 'CharacterBody2D.add_child'));
    expect(doc).toMatchObject({
      kind: 'method',
      className: 'Node',
      name: 'add_child',
      qname: 'Node.add_child',
      uri: 'godot://symbol/Node/method/add_child',
    });
    expect(doc.inherited).toEqual({
      requestedClass: 'CharacterBody2D',
      declaredIn: 'Node',
      chain: ['CharacterBody2D', 'PhysicsBody2D', 'CollisionObject2D', 'Node2D', 'CanvasItem', 'Node'],
    });
    expect(doc.note).toMatch(/inherited/);
    expect(doc.signature).toMatch(/^add_child\(node: Node/);
    expect(doc.description).toContain('[`remove_child()`](godot://symbol/Node/method/remove_child)');
    const pressed = symbolDoc(index, resolveSymbol(index, 'Button.pressed'));
    expect(pressed).toMatchObject({ kind: 'signal', className: 'BaseButton' });
  });

  it('resolves enums, Enum.VALUE and bare globals', () => {
    const mode = symbolDoc(index, resolveSymbol(index, 'Node.ProcessMode'));
    expect(mode.kind).toBe('enum');
    expect(mode.values?.map((v) => v.name)).toContain('PROCESS_MODE_INHERIT');
    expect(resolveSymbol(index, 'Node.ProcessMode.PROCESS_MODE_ALWAYS')).toMatchObject({ kind: 'constant', name: 'PROCESS_MODE_ALWAYS' });
    expect(symbolDoc(index, resolveSymbol(index, 'lerp'))).toMatchObject({ className: '@GlobalScope', kind: 'method' });
    expect(symbolDoc(index, resolveSymbol(index, '@export'))).toMatchObject({
      className: '@GDScript',
      kind: 'annotation',
      signature: '@export',
    });
  });

  it('answers an unknown member with NOT_FOUND and suggestions from the chain, renames and other classes', () => {
    const typo = notFound(() => resolveSymbol(index, 'CharacterBody2D.move_and_slid'));
    expect((typo.data as { suggestions: string[] }).suggestions[0]).toBe('CharacterBody2D.move_and_slide');
    const inherited = notFound(() => resolveSymbol(index, 'Node2D.add_chil'));
    expect((inherited.data as { suggestions: string[] }).suggestions).toContain('Node2D.add_child');
    const elsewhere = notFound(() => resolveSymbol(index, 'Node2D.move_and_slide'));
    expect((elsewhere.data as { suggestions: string[] }).suggestions).toContain('CharacterBody2D.move_and_slide');
    const renamed = notFound(() => resolveSymbol(index, 'PackedScene.instance'));
    expect(renamed.message).toMatch(/renamed to PackedScene\.instantiate/);
    const global = notFound(() => resolveSymbol(index, 'lerpp'));
    expect((global.data as { suggestions: string[] }).suggestions).toContain('@GlobalScope.lerp');
  });

  it('refuses names that look like paths or are malformed, before any lookup', () => {
    for (const bad of ['../etc/passwd', '/etc/passwd', 'Node/../../x', 'C:\\x', 'Node\0', 'x'.repeat(500), 'Node.a b', '']) {
      expect(() => resolveSymbol(index, bad)).toThrow(ToolError);
    }
    for (const bad of ['../Node', 'Node/x', 'Node.x', '']) {
      let error: unknown;
      try {
        resolveClass(index, bad);
      } catch (e) {
        error = e;
      }
      expect((error as ToolError).code).toBe('INVALID_ARGUMENT');
    }
  });
});

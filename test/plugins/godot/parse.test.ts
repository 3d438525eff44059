import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClassXml, tagsBalanced, XmlDocError } from '../../../plugins/godot/parse/xml.ts';
import { decodeEntities } from '../../../plugins/godot/parse/entities.ts';
import { BROKEN, DOC3, DOC4 } from './helpers.ts';

const read = (dir: string, name: string) => readFileSync(path.join(dir, 'classes', `${name}.xml`), 'utf8');

describe('Godot 4.x class XML', () => {
  const node2d = parseClassXml(read(DOC4, 'Node2D'), 'classes/Node2D.xml');

  it('reads the class header, brief, description and tutorials', () => {
    expect(node2d.name).toBe('Node2D');
    expect(node2d.inherits).toBe('CanvasItem');
    expect(node2d.brief).toMatch(/^A 2D game object/);
    expect(node2d.description).toContain('[member CanvasItem.z_index]');
    expect(node2d.tutorials[0]).toEqual({ title: 'Custom drawing in 2D', url: '$DOCS_URL/tutorials/2d/custom_drawing_in_2d.html' });
  });

  it('reads methods with <param>, defaults, return types and qualifiers', () => {
    const lookAt = node2d.methods.find((m) => m.name === 'look_at')!;
    expect(lookAt).toMatchObject({ returnType: 'void', params: [{ name: 'point', type: 'Vector2' }] });
    const moveX = node2d.methods.find((m) => m.name === 'move_local_x')!;
    expect(moveX.params).toEqual([
      { name: 'delta', type: 'float' },
      { name: 'scaled', type: 'bool', default: 'false' },
    ]);
    expect(node2d.methods.find((m) => m.name === 'get_angle_to')!.qualifiers).toBe('const');
  });

  it('reads members (properties) with their attributes and text, and signals with params', () => {
    const node = parseClassXml(read(DOC4, 'Node'), 'classes/Node.xml');
    const mode = node.properties.find((p) => p.name === 'process_mode')!;
    expect(mode).toMatchObject({
      type: 'int',
      enum: 'Node.ProcessMode',
      setter: 'set_process_mode',
      getter: 'get_process_mode',
      default: '0',
    });
    expect(mode.description).toMatch(/\S/);
    const childEntered = node.signals.find((s) => s.name === 'child_entered_tree')!;
    expect(childEntered.params).toEqual([{ name: 'node', type: 'Node' }]);
  });

  it('reads constants with their enums, and decodes entities in attributes', () => {
    const node = parseClassXml(read(DOC4, 'Node'), 'classes/Node.xml');
    const inherit = node.constants.find((c) => c.name === 'PROCESS_MODE_INHERIT')!;
    expect(inherit).toMatchObject({ value: '0', enum: 'ProcessMode' });
    const editorDescription = node.properties.find((p) => p.name === 'editor_description')!;
    expect(editorDescription.default).toBe('""');
  });

  it('reads constructors (despite the reserved tag name), operators and theme items', () => {
    const vector2 = parseClassXml(read(DOC4, 'Vector2'), 'classes/Vector2.xml');
    expect(vector2.constructors.length).toBeGreaterThan(2);
    expect(vector2.constructors.every((c) => c.name === 'Vector2')).toBe(true);
    expect(vector2.operators.some((o) => o.name === 'operator +')).toBe(true);
    const button = parseClassXml(read(DOC4, 'Button'), 'classes/Button.xml');
    expect(button.themeItems.find((t) => t.name === 'font_color')).toMatchObject({ dataType: 'color', type: 'Color' });
    // BaseButton only overrides the default of Control.focus_mode.
    const base = parseClassXml(read(DOC4, 'BaseButton'), 'classes/BaseButton.xml');
    expect(base.properties.find((p) => p.name === 'focus_mode')).toMatchObject({ overrides: 'Control', default: '2' });
  });

  it('reads annotations from @GDScript and deprecation notes', () => {
    const gd = parseClassXml(readFileSync(path.join(DOC4, 'modules/gdscript/doc_classes/@GDScript.xml'), 'utf8'), '@GDScript.xml');
    expect(gd.annotations.map((a) => a.name)).toContain('@export_range');
    expect(gd.annotations.find((a) => a.name === '@export_range')!.qualifiers).toBe('vararg');
    const node = parseClassXml(read(DOC4, 'Node'), 'classes/Node.xml');
    expect(node.constants.find((c) => c.name === 'NOTIFICATION_MOVED_IN_PARENT')!.deprecated).toMatch(/no longer sent/);
  });
});

describe('Godot 3.x class XML', () => {
  it('reads <argument> as params, the version attribute, and empty sections as empty arrays', () => {
    const k = parseClassXml(read(DOC3, 'KinematicBody2D'), 'classes/KinematicBody2D.xml');
    expect(k).toMatchObject({ name: 'KinematicBody2D', inherits: 'PhysicsBody2D', version: '3.2', brief: '', description: '' });
    const slide = k.methods.find((m) => m.name === 'move_and_slide')!;
    expect(slide.returnType).toBe('Vector2');
    expect(slide.params[0]).toEqual({ name: 'linear_velocity', type: 'Vector2' });
    expect(slide.params.map((p) => p.name)).toEqual([
      'linear_velocity',
      'up_direction',
      'stop_on_slope',
      'max_slides',
      'floor_max_angle',
      'infinite_inertia',
    ]);
    expect(k.annotations).toEqual([]);
    expect(k.themeItems).toEqual([]);
    expect(k.constructors).toEqual([]);
  });

  it('reads 3.x signals with <argument>', () => {
    const body = parseClassXml(read(DOC3, 'CollisionObject2D'), 'classes/CollisionObject2D.xml');
    expect(body.signals.find((s) => s.name === 'input_event')!.params.map((p) => p.name)).toEqual(['viewport', 'event', 'shape_idx']);
  });
});

describe('broken files', () => {
  it('reports a malformed file with its name, line and column', () => {
    let error: unknown;
    try {
      parseClassXml(read(BROKEN, 'Broken'), 'classes/Broken.xml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmlDocError);
    const e = error as XmlDocError;
    expect(e.file).toBe('classes/Broken.xml');
    expect(e.line).toBe(9);
    expect(e.col).toBeGreaterThan(0);
    expect(e.reason).toMatch(/method/);
  });

  it('refuses well-formed XML that is not a class document', () => {
    expect(() => parseClassXml(read(BROKEN, 'NotAClass'), 'classes/NotAClass.xml')).toThrow(/not a Godot class file/);
  });

  it('reports a truncated file', () => {
    const text = read(DOC4, 'Timer');
    expect(() => parseClassXml(text.slice(0, text.length / 2), 'classes/Timer.xml')).toThrow(XmlDocError);
  });
});

describe('decodeEntities', () => {
  it('decodes the five XML entities and numeric references, once', () => {
    expect(decodeEntities('a &lt;b&gt; &amp;amp; &quot;q&quot; &apos;s&apos; &#233; &#x2192;')).toBe('a <b> &amp; "q" \'s\' é →');
    expect(decodeEntities('no entities')).toBe('no entities');
    expect(decodeEntities('&unknown; &#99999999;')).toBe('&unknown; &#99999999;');
  });
});

describe('tagsBalanced (the quick check before parsing)', () => {
  it('accepts well-formed XML with declarations, comments, CDATA and > in text', () => {
    expect(tagsBalanced('<?xml version="1.0"?>\n<!-- c <x> -->\n<a x="1"><b/><c>1 > 0 <![CDATA[<raw>]]></c></a>')).toBe(true);
  });

  it('rejects mismatched, missing and stray tags', () => {
    expect(tagsBalanced('<a><b></c></a>')).toBe(false);
    expect(tagsBalanced('<a><b></b>')).toBe(false);
    expect(tagsBalanced('<a>1 < 2</a>')).toBe(false);
    expect(tagsBalanced('<a></a></a>')).toBe(false);
  });
});

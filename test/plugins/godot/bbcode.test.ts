import { describe, expect, it } from 'vitest';
import { dedent, splitTarget, toMarkdown, toPlain } from '../../../plugins/godot/parse/bbcode.ts';

const md = (text: string, className = 'Node2D', isClass?: (n: string) => boolean) => toMarkdown(text, { className, isClass });

describe('BBCode → Markdown', () => {
  it('converts inline formatting', () => {
    expect(md('[b]Note:[/b] an [i]important[/i] [code]true[/code] value, press [kbd]Ctrl + S[/kbd], [s]old[/s]')).toBe(
      '**Note:** an *important* `true` value, press `Ctrl + S`, ~~old~~',
    );
  });

  it('keeps the content of [code] literal, brackets included', () => {
    expect(md('Use [code]Array[int][/code] or [code]a[lb]0[rb][/code].')).toBe('Use `Array[int]` or `a[0]`.');
    expect(md('[code]a `tick`[/code]')).toBe('`` a `tick` ``');
  });

  it('turns each line of prose into a paragraph and drops the XML indentation', () => {
    expect(md('First line.\n\t\t\t\tSecond line.')).toBe('First line.\n\nSecond line.');
  });

  it('links cross-references to godot:// URIs, qualified or within the current class', () => {
    expect(md('[method look_at]')).toBe('[`look_at()`](godot://symbol/Node2D/method/look_at)');
    expect(md('[method Node._ready]')).toBe('[`Node._ready()`](godot://symbol/Node/method/_ready)');
    expect(md('[member CanvasItem.z_index]')).toBe('[`CanvasItem.z_index`](godot://symbol/CanvasItem/property/z_index)');
    expect(md('[signal Node.ready]')).toBe('[`Node.ready`](godot://symbol/Node/signal/ready)');
    expect(md('[constant @GlobalScope.KEY_A]')).toBe('[`@GlobalScope.KEY_A`](godot://symbol/@GlobalScope/constant/KEY_A)');
    expect(md('[enum Node.ProcessMode]')).toBe('[`Node.ProcessMode`](godot://symbol/Node/enum/ProcessMode)');
    expect(md('[theme_item font_color]', 'Button')).toBe('[`font_color`](godot://symbol/Button/theme_item/font_color)');
    expect(md('[annotation @GDScript.@export]')).toBe('[`@GDScript.@export`](godot://symbol/@GDScript/annotation/@export)');
  });

  it('percent-encodes member names that are paths (project settings)', () => {
    expect(md('[member ProjectSettings.display/window/size/mode]')).toBe(
      '[`ProjectSettings.display/window/size/mode`](godot://symbol/ProjectSettings/property/display%2Fwindow%2Fsize%2Fmode)',
    );
  });

  it('links [ClassName] to the class, and only known classes when told which exist', () => {
    expect(md('an [Array] of [int]')).toBe('an [`Array`](godot://class/Array) of [`int`](godot://class/int)');
    const known = (n: string) => n === 'Node';
    expect(md('[Node] and [Nope]', 'X', known)).toBe('[`Node`](godot://class/Node) and [Nope]');
  });

  it('renders [param], [url] with and without a target, and [br]', () => {
    expect(md('the [param delta] value')).toBe('the `delta` value');
    expect(md('[url=https://godotengine.org]Godot[/url] or [url]https://example.com[/url]')).toBe(
      '[Godot](https://godotengine.org) or <https://example.com>',
    );
    expect(md('[url=$DOCS_URL/tutorials/index.html]manual[/url]')).toBe(
      '[manual](https://docs.godotengine.org/en/stable/tutorials/index.html)',
    );
    expect(md('one[br]two')).toBe('one  \ntwo');
  });

  it('keeps code blocks intact, dedented, labelled gdscript by default', () => {
    const text =
      'Example:\n\t\t\t\t[codeblock]\n\t\t\t\tfunc _ready():\n\t\t\t\t\tprint("[b]not bold[/b]")\n\t\t\t\t[/codeblock]\n\t\t\t\tAfter.';
    expect(md(text)).toBe('Example:\n\n```gdscript\nfunc _ready():\n\tprint("[b]not bold[/b]")\n```\n\nAfter.');
    expect(md('[codeblock lang=text]\n\tplain\n[/codeblock]')).toBe('```text\nplain\n```');
  });

  it('splits [codeblocks] into one fenced block per language', () => {
    const text = '[codeblocks]\n\t[gdscript]\n\tvar a = 1\n\t[/gdscript]\n\t[csharp]\n\tint a = 1;\n\t[/csharp]\n\t[/codeblocks]';
    expect(md(text)).toBe('```gdscript\nvar a = 1\n```\n\n```csharp\nint a = 1;\n```');
  });

  it('leaves unknown tags and plain brackets alone, strips presentational tags', () => {
    expect(md('[unknown] [color=red]red[/color] [center]mid[/center]')).toBe('[unknown] red mid');
    expect(md('')).toBe('');
  });
});

describe('BBCode → plain text (for the index)', () => {
  it('keeps words and reference names, drops code blocks and tags', () => {
    expect(
      toPlain(
        '[b]Moves[/b] the [Node2D] via [method look_at] and [member position].\n\t[codeblock]\n\tsecret_code()\n\t[/codeblock]\n\tDone [url=https://x]here[/url].',
      ),
    ).toBe('Moves the Node2D via look_at and position. Done here.');
    expect(toPlain('[code]Array[lb]int[rb][/code]')).toBe('Array[int]');
  });
});

describe('helpers', () => {
  it('dedent removes the common indentation only', () => {
    expect(dedent('\n\t\ta\n\t\t\tb\n\t\t')).toBe('a\n\tb');
  });

  it('splitTarget reads Class.member, globals and project-setting paths', () => {
    expect(splitTarget('Node.add_child', 'X')).toEqual({ cls: 'Node', name: 'add_child' });
    expect(splitTarget('@GlobalScope.lerp', 'X')).toEqual({ cls: '@GlobalScope', name: 'lerp' });
    expect(splitTarget('add_child', 'X')).toEqual({ cls: 'X', name: 'add_child' });
    expect(splitTarget('rendering/limits/time.scale', 'ProjectSettings')).toEqual({
      cls: 'ProjectSettings',
      name: 'rendering/limits/time.scale',
    });
  });
});

// The manual field: reading godot-docs pages (.rst), tying their sentences to the symbols they
// name, the shipped manual-anchors file, a user's own checkout (manualDir), and the saved index
// noticing when the manual changes. The page below is written in the manual's format (roles,
// literals, tabs of GDScript and C#, as godotengine/godot-docs writes them) to pin each rule; the
// shipped file is checked against the real 4.5 reference when ../shared/data has it.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { normalizeConfig } from '../../../plugins/godot/config.ts';
import { discover } from '../../../plugins/godot/corpus/discover.ts';
import { GodotDocs } from '../../../plugins/godot/docs.ts';
import { buildIndex } from '../../../plugins/godot/search-index/build.ts';
import { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { loadIndex, saveIndex } from '../../../plugins/godot/search-index/persist.ts';
import { parseRanking, RANKING } from '../../../plugins/godot/lookup/params.ts';
import { search } from '../../../plugins/godot/lookup/search.ts';
import { manualTexts, SymbolTable } from '../../../plugins/godot/manual/resolve.ts';
import { parseRstPage } from '../../../plugins/godot/manual/rst.ts';
import { manualFromDir, manualFromFile, parseManualAnchors, SHIPPED_MANUAL } from '../../../plugins/godot/manual/source.ts';
import { DOC4, HAVE_SHARED, SHARED4 } from './helpers.ts';

const PAGE = `.. _doc_timers:

Waiting with timers
===================

Counting down
-------------

To wait before something happens, start a :ref:\`Timer <class_Timer>\` and call
:ref:\`start() <class_Timer_method_start>\`; it emits \`\`timeout\`\` when the time is up.

.. tabs::
 .. code-tab:: gdscript GDScript

    extends Node

    func my_helper():
        pass

    func _ready():
        # Spawn a bomb when the fuse burns down.
        add_child(Timer.new())
        my_helper()

 .. code-tab:: csharp

    public override void _Ready()
    {
        QueueFree();
    }

One Shot
~~~~~~~~

When enabled, the countdown runs once and then never again.

Old pages
---------

A Godot 3 page names :ref:\`KinematicBody2D <class_KinematicBody2D>\` and \`\`Spatial\`\`.
`;

async function doc4Index(manual?: ReturnType<typeof manualFromDir>) {
  const corpus = discover(DOC4);
  return new DocIndex(await buildIndex(corpus, { workers: 0, manual }), corpus.root);
}

describe('reading a manual page', () => {
  const page = parseRstPage(PAGE);
  const about = (name: string) => page.anchors.filter((a) => ('label' in a.target ? a.target.label : a.target.name) === name);

  it('takes the page title, section titles and the sentence around each :ref: and literal, as a person reads it', () => {
    expect(page.title).toBe('Waiting with timers');
    const start = about('class_Timer_method_start');
    expect(start).toHaveLength(1);
    expect(start[0].section).toBe('Counting down');
    expect(start[0].text).toBe('To wait before something happens, start a Timer and call start(); it emits timeout when the time is up.');
    expect(about('timeout')).toHaveLength(1);
  });

  it('ties a GDScript sample to what it calls, with its introduction and comments; C# tabs and the sample’s own functions are not read', () => {
    const calls = about('add_child');
    expect(calls).toHaveLength(1);
    expect(calls[0].text).toContain('Spawn a bomb when the fuse burns down');
    expect('scope' in calls[0].target && calls[0].target.scope).toEqual(['Node']);
    expect(about('Timer')[0].text).toContain('Spawn a bomb');
    expect(about('_ready')).toHaveLength(1);
    expect(about('my_helper')).toEqual([]);
    expect(about('QueueFree')).toEqual([]);
  });

  it('reads a short section title as the member it may name (One Shot → one_shot), only on the page’s own classes', () => {
    const titled = about('one_shot');
    expect(titled).toHaveLength(1);
    expect(titled[0].target).toEqual({ name: 'one_shot', pageOnly: true });
    expect(titled[0].text).toBe('When enabled, the countdown runs once and then never again.');
  });

  it('counts a class the page title names among the page’s classes, even where the page writes it in plain words', () => {
    const titled = parseRstPage(
      'Using Area2D and NavigationAgents\n=================================\n\nMonitoring\n----------\n\nWhen off, nothing is detected.\n',
    );
    expect([...titled.classes]).toEqual(expect.arrayContaining(['Area2D', 'NavigationAgents', 'NavigationAgent']));
    expect(titled.classes.has('Using')).toBe(false);
    expect(titled.anchors.map((a) => a.target)).toEqual([{ name: 'monitoring', pageOnly: true }]);
  });
});

describe('resolving anchors against the reference', () => {
  let index: DocIndex;
  beforeAll(async () => {
    index = await doc4Index();
  });

  it('gives each symbol the sentences, section and page titles naming it, and drops names the reference lacks', () => {
    const table = new SymbolTable(index.classes, index.docs);
    const { texts, dropped } = manualTexts(table, [parseRstPage(PAGE)]);
    const textOf = (qname: string) => texts.get(index.docs.findIndex((_, id) => index.qualifiedName(id) === qname));
    expect(textOf('Timer.start')).toContain('To wait before something happens');
    expect(textOf('Timer.start')).toContain('Waiting with timers');
    expect(textOf('Timer.timeout')).toContain('emits timeout');
    // A member found on an ancestor of the class the sample extends.
    expect(textOf('Node.add_child')).toContain('Spawn a bomb');
    expect(textOf('Timer.one_shot')).toContain('runs once');
    // Godot 3 names (KinematicBody2D, Spatial) are not in the 4.x fixture: dropped, not guessed.
    expect(dropped).toBeGreaterThanOrEqual(2);
    expect([...texts.values()].join(' ')).not.toContain('KinematicBody2D and Spatial.');
  });
});

describe('the manual field in the index', () => {
  const tmp = tempDir('godot-manual-');
  const manualDir = path.join(tmp.dir, 'godot-docs');
  let index: DocIndex;
  beforeAll(async () => {
    mkdirSync(path.join(manualDir, 'tutorials'), { recursive: true });
    writeFileSync(
      path.join(manualDir, 'tutorials/fuse.rst'),
      'Fuses\n=====\n\nTo zorblax a fuse, call :ref:`start() <class_Timer_method_start>` on it.\n',
    );
    // The class reference's own pages (classes/) are generated from the XML already indexed: not read.
    mkdirSync(path.join(manualDir, 'classes'));
    writeFileSync(
      path.join(manualDir, 'classes/class_node.rst'),
      'Node\n====\n\nQuxwobble :ref:`add_child() <class_Node_method_add_child>`.\n',
    );
    index = await doc4Index(manualFromDir(manualDir));
  });

  it('finds a symbol by a word only the manual uses, with the field’s weight, and not without it', () => {
    const off = { ...RANKING, bm25f: { ...RANKING.bm25f, weights: RANKING.bm25f.weights.map((w, f) => (f === 6 ? 0 : w)) } };
    const on = { ...RANKING, bm25f: { ...RANKING.bm25f, weights: RANKING.bm25f.weights.map((w, f) => (f === 6 ? 1 : w)) } };
    expect(search(index, 'zorblax', { limit: 3, params: on }).map((r) => r.name)).toEqual(['Timer.start']);
    expect(search(index, 'zorblax', { limit: 3, params: off })).toEqual([]);
    expect(search(index, 'quxwobble', { limit: 3, params: on })).toEqual([]);
  });

  it('rejects a manualDir that is not a folder or holds no .rst page, naming the setting and the fix', () => {
    expect(() => manualFromDir(path.join(tmp.dir, 'nope'))).toThrow(/nope is not a folder.*plugins\.godot\.manualDir.*GODOT_MANUAL_DIR/s);
    const empty = path.join(tmp.dir, 'empty');
    mkdirSync(empty);
    expect(() => manualFromDir(empty)).toThrow(/holds no \.rst pages.*manualDir/s);
    const docs = new GodotDocs(normalizeConfig({ watch: false, docDir: DOC4, manualDir: empty }, tmp.dir, tmp.dir), console as never);
    return expect(docs.check()).rejects.toThrow(/manualDir/);
  });

  it('does not reuse a saved index built from another manual', async () => {
    const file = path.join(tmp.dir, 'index/godot-index.json');
    const corpus = discover(DOC4);
    const fromDir = manualFromDir(manualDir);
    saveIndex(file, corpus, await buildIndex(corpus, { workers: 0, manual: fromDir }), fromDir.stamp);
    expect('index' in loadIndex(file, corpus, fromDir.stamp)).toBe(true);
    expect(loadIndex(file, corpus, manualFromFile().stamp)).toEqual({ stale: expect.stringMatching(/manual.*changed/) });
    writeFileSync(path.join(manualDir, 'tutorials/fuse.rst'), 'Fuses\n=====\n\nChanged.\n');
    expect(loadIndex(file, corpus, manualFromDir(manualDir).stamp)).toEqual({ stale: expect.stringMatching(/manual/) });
  });
});

describe('the manual shipped with the plugin', () => {
  const file = path.join(REPO, 'plugins/godot/data', SHIPPED_MANUAL);
  const text = readFileSync(file, 'utf8');

  it('says where it comes from and under which licence, in its header and in SOURCE.md beside it', () => {
    const header = text.split('\n').filter((l) => l.startsWith('#'));
    expect(header.join('\n')).toMatch(/godotengine\/godot-docs/);
    expect(header.join('\n')).toMatch(/CC BY 3\.0/);
    const source = readFileSync(path.join(REPO, 'plugins/godot/data/SOURCE.md'), 'utf8');
    expect(source).toMatch(/CC BY 3\.0/);
    // Every page read is listed with the commit it was read at.
    const pages = source.match(/^\| `[^`]+\.rst` \| [0-9a-f]{40}/gm) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(200);
    expect(text).toMatch(new RegExp(`; ${pages.length} pages \\(`));
  });

  it('stays compact: under 1 MB, each symbol’s text within the field’s 2,000 characters', () => {
    expect(Buffer.byteLength(text)).toBeLessThan(1_000_000);
    for (const e of parseManualAnchors(text)) expect(e.text.length, e.qname).toBeLessThanOrEqual(2000);
  });

  it.skipIf(!HAVE_SHARED)('names only symbols of the 4.5 reference, each with text', async () => {
    const corpus = discover(SHARED4);
    const built = await buildIndex(corpus, { workers: 0, manual: manualFromFile(file) });
    const entries = parseManualAnchors(text);
    expect(entries.length).toBeGreaterThan(300);
    expect(entries.every((e) => e.text.trim().length > 0)).toBe(true);
    const docs = new DocIndex(built, corpus.root);
    const withManual = docs.docs.filter((_, id) => docs.engine.fieldLength(id, 6) > 0).length;
    expect(withManual).toBe(entries.length);
  });
});

describe('the plugin’s data and import graph', () => {
  const root = path.join(REPO, 'plugins/godot');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSafe(dir)) {
      const full = path.join(dir, name);
      if (name.endsWith('.ts')) files.push(full);
      else if (!name.includes('.')) walk(full);
    }
  };
  walk(root);
  // Lower layers first; a module may import its own layer or lower ones only.
  const LAYERS: Array<[RegExp, number]> = [
    [/^(model|uri|signature|ranking-params|data-files|config|wink\.d|views)\.ts$/, 0],
    [/^(parse|corpus)\//, 1],
    [/^manual\//, 2],
    [/^search-index\//, 3],
    [/^lookup\//, 4],
    [/^view\//, 5],
    [/^surface\//, 6],
    [/^(docs|index)\.ts$/, 7],
    // The views' browser code, which imports only itself (and ext-apps).
    [/^ui\//, 8],
  ];
  const layerOf = (rel: string) => LAYERS.find(([re]) => re.test(rel))?.[1];

  it('has no import from a lower module to a higher one, and ranking-params imports nothing', () => {
    const upward: string[] = [];
    for (const file of files) {
      const rel = path.relative(root, file);
      const from = layerOf(rel);
      expect(from, rel).toBeDefined();
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
        const target = path.relative(root, path.resolve(path.dirname(file), m[1])).replace(/\.js$/, '.ts');
        if (target.startsWith('..')) continue;
        const to = layerOf(target);
        if (to === undefined || to > from!) upward.push(`${rel} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
    expect(readFileSync(path.join(root, 'ranking-params.ts'), 'utf8')).not.toMatch(/^import /m);
  });

  it('keeps vocabulary and fitted numbers out of the TypeScript', () => {
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(source, path.relative(root, file)).not.toMatch(/weights:\s*\[\s*\d/);
      expect(source, path.relative(root, file)).not.toMatch(/^\s+[a-z]+: \['[a-z0-9 ]+', '[^']+'\],$/m);
    }
    expect(existsSync(path.join(root, 'data/ranking.json'))).toBe(true);
    expect(existsSync(path.join(root, 'data/vocabulary.tsv'))).toBe(true);
  });

  it('refuses a malformed ranking file, naming the field and the fix', () => {
    const good = JSON.parse(readFileSync(path.join(root, 'data/ranking.json'), 'utf8'));
    expect(parseRanking(JSON.stringify(good))).toEqual(RANKING);
    const bad = { ...good, params: { ...good.params, bm25f: { ...good.params.bm25f, k1: 'fast' } } };
    expect(() => parseRanking(JSON.stringify(bad))).toThrow(/params\.bm25f\.k1.*godot-fit\.js --write/);
    const short = { ...good, params: { ...good.params, bm25f: { ...good.params.bm25f, weights: [1, 2] } } };
    expect(() => parseRanking(JSON.stringify(short))).toThrow(/params\.bm25f\.weights/);
  });
});

function readdirSafe(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { discover } from '../../../plugins/godot/corpus/discover.ts';
import { buildIndex } from '../../../plugins/godot/search-index/build.ts';
import { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { binaryPath, loadIndex, saveIndex } from '../../../plugins/godot/search-index/persist.ts';
import { search } from '../../../plugins/godot/lookup/search.ts';
import { BROKEN, DOC3, DOC4, fixtureIndex } from './helpers.ts';

describe('discover', () => {
  const tmp = tempDir('godot-discover-');

  it('reads classes/ and modules/*/doc_classes/ of a doc folder', () => {
    const corpus = discover(DOC4);
    const rels = corpus.files.map((f) => f.rel);
    expect(rels).toContain('classes/Node.xml');
    expect(rels).toContain('modules/gdscript/doc_classes/@GDScript.xml');
    expect(corpus.files.every((f) => f.size > 0 && f.mtimeMs > 0)).toBe(true);
  });

  it('reads a source checkout / --doctool layout (doc/classes beside modules/) and a flat folder', () => {
    const root = path.join(tmp.dir, 'checkout');
    cpSync(path.join(DOC3, 'classes'), path.join(root, 'doc/classes'), { recursive: true });
    cpSync(path.join(DOC3, 'modules'), path.join(root, 'modules'), { recursive: true });
    const rels = discover(root).files.map((f) => f.rel);
    expect(rels).toContain('doc/classes/KinematicBody2D.xml');
    expect(rels).toContain('modules/gdscript/doc_classes/@GDScript.xml');
    expect(discover(path.join(DOC4, 'classes')).files.map((f) => f.rel)).toContain('Node2D.xml');
  });

  it('fails fast, naming the folder and the fix, when it is missing or holds no class XML', () => {
    const missing = path.join(tmp.dir, 'nope');
    expect(() => discover(missing)).toThrow(new RegExp(`${missing}.*does not exist.*GODOT_DOC_DIR`, 's'));
    const empty = path.join(tmp.dir, 'empty');
    mkdirSync(empty);
    expect(() => discover(empty)).toThrow(/No Godot class XML found in .*empty.*plugins\.godot\.docDir/s);
    expect(() => discover(tmp.write('file.txt', 'x'))).toThrow(/is not a folder/);
  });

  it('skips class files that are symlinks leading outside the doc folder', () => {
    const root = path.join(tmp.dir, 'links');
    mkdirSync(path.join(root, 'classes'), { recursive: true });
    cpSync(path.join(DOC4, 'classes/Timer.xml'), path.join(root, 'classes/Timer.xml'));
    symlinkSync(path.join(DOC4, 'classes/Node.xml'), path.join(root, 'classes/Node.xml'));
    symlinkSync('Timer.xml', path.join(root, 'classes/Alias.xml'));
    const warnings: string[] = [];
    const rels = discover(root, (m) => warnings.push(m)).files.map((f) => f.rel);
    expect(rels).toEqual(['classes/Alias.xml', 'classes/Timer.xml']);
    expect(warnings.join('\n')).toMatch(/Node\.xml: it links outside the doc folder/);
  });
});

describe('buildIndex', () => {
  it('indexes classes and every kind of symbol', async () => {
    const index = await fixtureIndex(DOC4);
    expect(index.classNames()).toEqual(expect.arrayContaining(['Node', 'Node2D', 'CharacterBody2D', '@GDScript', '@GlobalScope']));
    const kinds = new Set(index.docs.map((d) => d.kind));
    expect([...kinds].sort()).toEqual(['annotation', 'class', 'constant', 'method', 'property', 'signal', 'theme_item']);
    const inherit = index.docs.find((d) => d.name === 'PROCESS_MODE_INHERIT')!;
    expect(inherit.enum).toBe('ProcessMode');
  });

  it('skips a broken file with a warning naming the file, line and column, and serves the rest', async () => {
    const warnings: string[] = [];
    const index = await fixtureIndex(BROKEN, warnings);
    expect(index.classNames()).toEqual(['Timer']);
    const broken = warnings.find((w) => w.includes('Broken.xml'))!;
    expect(broken).toMatch(/XML parse error at line 9, column \d+/);
    expect(warnings.some((w) => /NotAClass\.xml.*not a Godot class file/.test(w))).toBe(true);
    expect(index.warnings).toEqual(warnings);
  });

  it('gives the same index in worker threads (compiled code) and in the main thread', async () => {
    // Workers run the compiled parse-worker.js, so this uses dist/ (built by npm test).
    const dist = path.join(REPO, 'dist/plugins/godot');
    const built = (await import(path.join(dist, 'search-index/build.js'))) as typeof import('../../../plugins/godot/search-index/build.ts');
    const corpus = discover(DOC4);
    const warnings: string[] = [];
    const a = new DocIndex(await buildIndex(corpus, { workers: 0 }), corpus.root);
    const b = new DocIndex(await built.buildIndex(corpus, { workers: 3, warn: (m) => warnings.push(m) }), corpus.root);
    expect(warnings).toEqual([]);
    expect(b.docs).toEqual(a.docs);
    expect(search(b, 'timer wait time', { limit: 5 })).toEqual(search(a, 'timer wait time', { limit: 5 }));
  });

  it('reports progress while building', async () => {
    const updates: Array<{ progress: number; total?: number }> = [];
    await buildIndex(discover(DOC4), { workers: 0, progress: (u) => updates.push(u) });
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.at(-1)!.progress).toBeLessThanOrEqual(updates.at(-1)!.total!);
    expect(updates.map((u) => u.progress)).toEqual([...updates.map((u) => u.progress)].sort((x, y) => x - y));
  });
});

describe('saved index', () => {
  const tmp = tempDir('godot-persist-');

  it('loads back to the same tables and search results', async () => {
    const corpus = discover(DOC4);
    const built = await buildIndex(corpus, { workers: 0 });
    const file = path.join(tmp.dir, 'cache/godot-index.json');
    saveIndex(file, corpus, built);
    expect(readFileSync(binaryPath(file)).length).toBeGreaterThan(0);
    const loaded = loadIndex(file, corpus);
    if (!('index' in loaded)) throw new Error(loaded.stale);
    expect(loaded.index.docs).toEqual(built.docs);
    expect(loaded.index.classes).toEqual(built.classes);
    const before = new DocIndex(built, corpus.root);
    const after = new DocIndex(loaded.index, corpus.root);
    for (const q of ['node', 'move and slide', 'timer timeout signal'])
      expect(search(after, q, { limit: 10 })).toEqual(search(before, q, { limit: 10 }));
  });

  it('is stale when a class file changes, is missing, or the binary half does not match', async () => {
    const root = path.join(tmp.dir, 'doc');
    cpSync(DOC4, root, { recursive: true });
    const file = path.join(tmp.dir, 'stale/godot-index.json');
    saveIndex(file, discover(root), await buildIndex(discover(root), { workers: 0 }));
    expect('index' in loadIndex(file, discover(root))).toBe(true);

    const timer = path.join(root, 'classes/Timer.xml');
    utimesSync(timer, new Date(), new Date(Date.now() + 5000));
    expect(loadIndex(file, discover(root))).toEqual({ stale: 'class files changed since the index was saved' });

    saveIndex(file, discover(root), await buildIndex(discover(root), { workers: 0 }));
    writeFileSync(binaryPath(file), Buffer.alloc(64));
    expect(loadIndex(file, discover(root))).toMatchObject({ stale: expect.stringMatching(/does not belong/) });
    expect(loadIndex(path.join(tmp.dir, 'none.json'), discover(root))).toEqual({ stale: 'no saved index' });
  });
});

describe('reading class details', () => {
  const tmp = tempDir('godot-details-');

  it('never follows an index entry or a symlink out of the doc folder', async () => {
    const root = path.join(tmp.dir, 'doc');
    cpSync(DOC4, root, { recursive: true });
    const corpus = discover(root);
    const built = await buildIndex(corpus, { workers: 0 });
    const timer = built.classes.findIndex((c) => c.name === 'Timer');
    const node = built.classes.findIndex((c) => c.name === 'Node');
    // A tampered saved index naming a file outside the folder.
    built.classes[node] = { ...built.classes[node], file: '../outside/Node.xml' };
    const index = new DocIndex(built, corpus.root);
    expect(() => index.rawClass(node)).toThrow(/outside the doc folder/);
    // A class file replaced by a symlink to a file outside the folder after indexing.
    const outside = tmp.write('Secret.xml', readFileSync(path.join(DOC4, 'classes/Timer.xml'), 'utf8'));
    rmSync(path.join(root, 'classes/Timer.xml'));
    symlinkSync(outside, path.join(root, 'classes/Timer.xml'));
    expect(() => index.rawClass(timer)).toThrow(/outside the doc folder/);
  });
});

// The godot plugin through the host in-process (config → loader → registry, as `mcphost call` and
// `mcphost doctor` run it): flags that are settings, `.mcprc` paths, unknown keys, broken class
// files, a missing doc folder, and where the index is cached.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctorReport } from '../../../src/app/inspect.ts';
import { isolatedEnv } from '../../helpers/cli.ts';
import { callInProcess } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { defaultIndexPath } from '../../../plugins/godot/config.ts';
import { BROKEN, DOC3, DOC4 } from './helpers.ts';

const tmp = tempDir('godot-host-');

/** A fresh working directory, and an environment whose cache folder is outside it. */
function place(name: string, extra: Record<string, string | undefined> = {}) {
  const cwd = path.join(tmp.dir, name);
  mkdirSync(cwd, { recursive: true });
  const cache = path.join(tmp.dir, 'cache');
  return { cwd, cache, env: isolatedEnv(path.join(tmp.dir, 'home'), { XDG_CACHE_HOME: cache, GODOT_DOC_DIR: DOC4, ...extra }) };
}

const json = (outcome: Awaited<ReturnType<typeof callInProcess>>) => JSON.parse((outcome.result.content[0] as { text: string }).text);

describe('mcphost call godot (in-process)', () => {
  it('runs every tool by its plugin-local name, taking flags as arguments', async () => {
    const { cwd, env } = place('tools');
    const call = (tool: string, args: Record<string, unknown> = {}, flags: Array<{ name: string; value?: string }> = []) =>
      callInProcess({ cwd, env, plugin: 'godot', tool, args, flags: flags.map((f) => ({ ...f, text: `--${f.name}` })) });
    expect(json(await call('search', {}, [{ name: 'query', value: 'timer' }]))[0]).toMatchObject({ name: 'Timer', kind: 'class' });
    expect((await call('get_class', { name: 'Timer' })).result.structuredContent).toMatchObject({ name: 'Timer', inherits: 'Node' });
    expect((await call('get_symbol', { qname: 'Node2D.add_child' })).result.structuredContent).toMatchObject({
      className: 'Node',
      inherited: { requestedClass: 'Node2D' },
    });
    expect(json(await call('godot_list_classes', { prefix: 'Char' }))).toEqual(['CharacterBody2D']);
    expect((await call('check_api', { calls: ['Timer.start(1)', 'Timer.stop()'] })).result.structuredContent).toMatchObject({
      ok: true,
      checked: 2,
    });
  });

  it('answers an unknown name with NOT_FOUND and the did-you-mean list', async () => {
    const { cwd, env } = place('unknown');
    const outcome = await callInProcess({ cwd, env, plugin: 'godot', tool: 'get_class', args: { name: 'Nod2D' } });
    expect(outcome.error).toMatchObject({ kind: 'tool_error', code: 'NOT_FOUND' });
    expect(outcome.error!.message).toMatch(/No Godot class named Nod2D.*Did you mean Node2D/s);
  });

  it('answers UNAVAILABLE naming the folder and the fix when the doc folder is wrong', async () => {
    const missing = path.join(tmp.dir, 'missing-doc');
    const { cwd, env } = place('missing', { GODOT_DOC_DIR: missing });
    const outcome = await callInProcess({ cwd, env, plugin: 'godot', tool: 'search', args: { query: 'timer' } });
    expect(outcome.error).toMatchObject({ kind: 'unavailable', code: 'UNAVAILABLE' });
    expect(outcome.error!.message).toContain(missing);
    expect(outcome.error!.message).toMatch(/GODOT_DOC_DIR/);
  });

  it('skips a broken class file with a warning naming it, its line and column, built or loaded from the cache', async () => {
    for (let run = 0; run < 2; run++) {
      const { cwd, env } = place(`broken-${run}`, { GODOT_DOC_DIR: BROKEN });
      const log: string[] = [];
      const outcome = await callInProcess({ cwd, env, plugin: 'godot', tool: 'list_classes', writeLog: (l) => log.push(l) });
      expect(json(outcome)).toEqual(['Timer']);
      expect(log.join('\n')).toMatch(/skipped .*Broken\.xml: XML parse error at line 9, column \d+/);
      expect(log.join('\n')).toMatch(/skipped .*NotAClass\.xml/);
    }
  });

  it('takes --doc-dir (a plugin setting) for one call, over the environment', async () => {
    const { cwd, env } = place('flag');
    const outcome = await callInProcess({
      cwd,
      env,
      plugin: 'godot',
      tool: 'get_symbol',
      args: { qname: 'KinematicBody2D.move_and_slide' },
      flags: [{ name: 'doc-dir', value: DOC3, text: '--doc-dir' }],
    });
    expect(outcome.result.structuredContent).toMatchObject({ className: 'KinematicBody2D', returnType: 'Vector2' });
  });

  it('refuses a bad argument naming the field', async () => {
    const { cwd, env } = place('bad-arg');
    const outcome = await callInProcess({ cwd, env, plugin: 'godot', tool: 'search', args: { query: 'x', kind: 'bogus' } });
    expect(outcome.error).toMatchObject({ kind: 'invalid_arguments' });
    expect(outcome.error!.message).toMatch(/kind/);
  });
});

describe('the index cache', () => {
  it("is kept in the user's cache folder, one per doc folder, reused from any working directory, and nothing is written to the cwd", async () => {
    const first = place('project-a');
    const second = place('project-b');
    const run = (where: typeof first, docDir = DOC4) =>
      callInProcess({
        cwd: where.cwd,
        env: { ...where.env, GODOT_DOC_DIR: docDir },
        plugin: 'godot',
        tool: 'search',
        args: { query: 'timer' },
      });
    await run(first);
    const file = defaultIndexPath(path.join(first.cache, 'mcphost/godot'), DOC4);
    const built = JSON.parse(readFileSync(file, 'latin1')).buildId;
    await run(second);
    // The second working directory loaded the same index instead of building its own.
    expect(JSON.parse(readFileSync(file, 'latin1')).buildId).toBe(built);
    await run(second, DOC3);
    const other = defaultIndexPath(path.join(first.cache, 'mcphost/godot'), DOC3);
    expect(existsSync(other)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'latin1')).buildId).toBe(built);
    expect(readdirSync(first.cwd)).toEqual([]);
    expect(readdirSync(second.cwd)).toEqual([]);
  });

  it('goes where GODOT_INDEX_PATH or indexPath in .mcprc says (relative to the config file)', async () => {
    const fromEnv = place('env-path', { GODOT_INDEX_PATH: path.join(tmp.dir, 'custom/idx.json') });
    await callInProcess({ cwd: fromEnv.cwd, env: fromEnv.env, plugin: 'godot', tool: 'list_classes' });
    expect(existsSync(path.join(tmp.dir, 'custom/idx.json'))).toBe(true);
    expect(existsSync(path.join(tmp.dir, 'custom/idx.bin'))).toBe(true);

    const project = path.join(tmp.dir, 'project');
    mkdirSync(path.join(project, 'sub'), { recursive: true });
    writeFileSync(
      path.join(project, '.mcprc.json'),
      JSON.stringify({ plugins: { godot: { docDir: path.relative(project, DOC4), indexPath: 'cache/idx.json' } } }),
    );
    // The project is in the user's home: the search goes up from sub/ to it (outside home, only the working directory is searched).
    const env = isolatedEnv(tmp.dir, { XDG_CACHE_HOME: path.join(tmp.dir, 'cache') });
    const outcome = await callInProcess({
      cwd: path.join(project, 'sub'),
      env,
      plugin: 'godot',
      tool: 'list_classes',
      args: { prefix: 'Timer' },
    });
    expect(json(outcome)).toEqual(['Timer']);
    expect(existsSync(path.join(project, 'cache/idx.json'))).toBe(true);
    const doctor = await doctorReport({ cwd: path.join(project, 'sub'), env, plugins: ['godot'], writeLog: () => undefined });
    expect(doctor.ok).toBe(true);
    expect(JSON.stringify(doctor)).toContain(path.join(project, 'cache/idx.json'));
  });
});

describe('.mcprc and doctor', () => {
  it('reports an unknown key of plugins.godot naming the key and the known one', async () => {
    const project = path.join(tmp.dir, 'badkey');
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, '.mcprc.json'), JSON.stringify({ plugins: { godot: { docdir: '/x' } } }));
    await expect(
      callInProcess({ cwd: project, env: isolatedEnv(project), plugin: 'godot', tool: 'search', args: { query: 'x' } }),
    ).rejects.toThrow(/plugins\.godot\.docdir.*unknown key.*docDir/s);
  });

  it('doctor says what is wrong and how to fix it, and what is served when fine', async () => {
    const missing = path.join(tmp.dir, 'nowhere');
    const bad = place('doctor-bad', { GODOT_DOC_DIR: missing });
    const report = await doctorReport({ cwd: bad.cwd, env: bad.env, plugins: ['godot'], writeLog: () => undefined });
    expect(report.ok).toBe(false);
    expect(report.plugins[0].message).toContain(missing);
    expect(report.plugins[0].message).toMatch(/plugins\.godot\.docDir/);
    const good = place('doctor-good');
    const fine = await doctorReport({ cwd: good.cwd, env: good.env, plugins: ['godot'], writeLog: () => undefined });
    expect(fine.ok).toBe(true);
    expect(fine.plugins[0].message).toMatch(/18 class files in .*doc4/);
  });
});

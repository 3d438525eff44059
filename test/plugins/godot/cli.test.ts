// `mcphost call godot …`, `mcphost doctor` and `.mcprc` handling for the godot plugin, through the
// real CLI binary.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { BROKEN, DOC3, DOC4 } from './helpers.ts';

const tmp = tempDir('godot-cli-');
mkdirSync(path.join(tmp.dir, 'broken-run'));
const env = (extra: Record<string, string | undefined> = {}) => isolatedEnv(tmp.dir, { GODOT_DOC_DIR: DOC4, ...extra });

describe('mcphost call godot', () => {
  it('searches: `call godot search --query timer`', async () => {
    const r = await runCli(['call', 'godot', 'search', '--query', 'timer', '--limit', '3', '--log-level', 'debug'], {
      cwd: tmp.dir,
      env: env(),
    });
    expect(r.exitCode).toBe(0);
    const results = JSON.parse(r.stdout);
    expect(results[0]).toMatchObject({ name: 'Timer', kind: 'class', uri: 'godot://class/Timer' });
    expect(results.length).toBe(3);
    // Progress of the first (cold) call goes to stderr, never stdout (piped, only at debug).
    expect(r.stderr).toMatch(/progress/);
  });

  it('runs every tool by its plugin-local name', async () => {
    const cls = await runCli(['call', 'godot', 'get_class', '--name', 'Timer'], { cwd: tmp.dir, env: env() });
    expect(cls.exitCode).toBe(0);
    expect(JSON.parse(cls.stdout)).toMatchObject({ name: 'Timer', inherits: 'Node' });
    const sym = await runCli(['call', 'godot', 'get_symbol', '--qname', 'Node2D.add_child', '--json'], { cwd: tmp.dir, env: env() });
    expect(sym.exitCode).toBe(0);
    expect(JSON.parse(sym.stdout).structuredContent).toMatchObject({ className: 'Node', inherited: { requestedClass: 'Node2D' } });
    const list = await runCli(['call', 'godot', 'godot_list_classes', '--prefix', 'Char'], { cwd: tmp.dir, env: env() });
    expect(JSON.parse(list.stdout)).toEqual(['CharacterBody2D']);
    const check = await runCli(['call', 'godot', 'check_api', '--calls', 'Timer.start(1)', '--calls', 'Timer.stop()'], {
      cwd: tmp.dir,
      env: env(),
    });
    expect(check.exitCode).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, checked: 2 });
    const code = await runCli(['call', 'godot', 'check_api', '--args', '-'], {
      cwd: tmp.dir,
      env: env(),
      input: JSON.stringify({ code: 'extends Sprite\n' }),
    });
    expect(JSON.parse(code.stdout).results[0]).toMatchObject({ exists: false, suggestions: expect.any(Array) });
  });

  it('exits 5 with the did-you-mean list for an unknown name', async () => {
    const r = await runCli(['call', 'godot', 'get_class', '--name', 'Nod2D'], { cwd: tmp.dir, env: env() });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/No Godot class named Nod2D.*Did you mean Node2D/s);
  });

  it('exits 4 naming the folder and the fix when the doc folder is wrong', async () => {
    const missing = path.join(tmp.dir, 'missing-doc');
    const r = await runCli(['call', 'godot', 'search', '--query', 'timer'], { cwd: tmp.dir, env: env({ GODOT_DOC_DIR: missing }) });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).toMatch(/GODOT_DOC_DIR/);
  });

  it('skips a broken class file with a warning naming it, its line and column, and serves the rest', async () => {
    for (let run = 0; run < 2; run++) {
      // The second run loads the saved index and still says which file was left out.
      const r = await runCli(['call', 'godot', 'list_classes'], {
        cwd: path.join(tmp.dir, 'broken-run'),
        env: env({ GODOT_DOC_DIR: BROKEN }),
      });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(['Timer']);
      expect(r.stderr).toMatch(/skipped .*Broken\.xml: XML parse error at line 9, column \d+/);
      expect(r.stderr).toMatch(/skipped .*NotAClass\.xml/);
    }
  });

  it('takes --doc-dir (a plugin setting) for one call, over the environment', async () => {
    const r = await runCli(['call', 'godot', 'get_symbol', '--qname', 'KinematicBody2D.move_and_slide', '--doc-dir', DOC3], {
      cwd: tmp.dir,
      env: env(),
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ className: 'KinematicBody2D', returnType: 'Vector2' });
  });

  it('refuses a bad argument with exit 1 naming the field', async () => {
    const r = await runCli(['call', 'godot', 'search', '--query', 'x', '--kind', 'bogus'], { cwd: tmp.dir, env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/kind/);
  });
});

describe('mcphost read and prompts', () => {
  it('reads the godot:// resources and lists the prompt', async () => {
    const cls = await runCli(['read', 'godot://class/Timer', '--plugins', 'godot'], { cwd: tmp.dir, env: env() });
    expect(cls.exitCode).toBe(0);
    expect(cls.stdout).toMatch(/^# Timer\n/);
    const sym = await runCli(['read', 'godot://symbol/Timer/signal/timeout', '--plugins', 'godot'], { cwd: tmp.dir, env: env() });
    expect(sym.stdout).toMatch(/^# Timer\.timeout \(signal\)/);
    const found = await runCli(['read', 'godot://search?q=wait%20time&kind=property', '--plugins', 'godot'], { cwd: tmp.dir, env: env() });
    expect(JSON.parse(found.stdout)[0]).toMatchObject({ name: 'Timer.wait_time', kind: 'property' });
    const prompts = await runCli(['prompts', '--plugins', 'godot'], { cwd: tmp.dir, env: env() });
    expect(prompts.stdout).toContain('godot_how_to_use_godot_docs');
  });
});

describe('.mcprc and doctor', () => {
  it('resolves docDir and indexPath against the config file folder', async () => {
    const project = path.join(tmp.dir, 'project');
    mkdirSync(path.join(project, 'sub'), { recursive: true });
    writeFileSync(
      path.join(project, '.mcprc.json'),
      JSON.stringify({ plugins: { godot: { docDir: path.relative(project, DOC4), indexPath: 'cache/idx.json' } } }),
    );
    const r = await runCli(['call', 'godot', 'list_classes', '--prefix', 'Timer'], {
      cwd: path.join(project, 'sub'),
      env: isolatedEnv(tmp.dir),
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['Timer']);
    const doctor = await runCli(['doctor', '--plugins', 'godot', '--json'], { cwd: path.join(project, 'sub'), env: isolatedEnv(tmp.dir) });
    expect(doctor.exitCode).toBe(0);
    expect(doctor.stdout).toContain(path.join(project, 'cache/idx.json'));
  });

  it('reports an unknown key of plugins.godot with exit 3', async () => {
    const project = path.join(tmp.dir, 'badkey');
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, '.mcprc.json'), JSON.stringify({ plugins: { godot: { docdir: '/x' } } }));
    const r = await runCli(['call', 'godot', 'search', '--query', 'x'], { cwd: project, env: isolatedEnv(tmp.dir) });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/plugins\.godot\.docdir.*unknown key.*docDir/s);
  });

  it('doctor says what is wrong and how to fix it, and what is served when fine', async () => {
    const missing = path.join(tmp.dir, 'nowhere');
    const bad = await runCli(['doctor', '--plugins', 'godot'], { cwd: tmp.dir, env: env({ GODOT_DOC_DIR: missing }) });
    expect(bad.exitCode).toBe(4);
    expect(bad.stdout).toContain(missing);
    expect(bad.stdout).toMatch(/plugins\.godot\.docDir/);
    const good = await runCli(['doctor', '--plugins', 'godot'], { cwd: tmp.dir, env: env() });
    expect(good.exitCode).toBe(0);
    expect(good.stdout).toMatch(/18 class files in .*doc4/);
  });
});

// plugins.godot.godotBinary: the reference dumped by the user's own engine with --doctool, cached
// under the index folder by engine version. Needs a headless Godot: Debian's godot3-server
// (apt-get install godot3-server), or GODOT_BIN pointing at any Godot 3/4 binary.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

const GODOT = process.env.GODOT_BIN ?? onPath('godot3-server');
if (!GODOT) console.log('skipping the godot --doctool test: no headless Godot (apt-get install godot3-server, or set GODOT_BIN)');

const tmp = tempDir('godot-doctool-');

function project(name: string, section: Record<string, unknown>): string {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.mcprc.json'), JSON.stringify({ plugins: { godot: section } }));
  return dir;
}

describe.skipIf(!GODOT)('godotBinary with a real Godot', () => {
  it('dumps the reference once, caches it by version under the index folder, and serves it', async () => {
    const cwd = project('real', { godotBinary: GODOT });
    const env = isolatedEnv(cwd);
    // Piped, progress (the dump's announcement) is printed only at debug.
    const first = await runCli(['call', 'godot', 'get_symbol', '--qname', 'Node.add_child', '--log-level', 'debug'], {
      cwd,
      env,
      timeout: 120_000,
    });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ kind: 'method', className: 'Node', name: 'add_child' });
    expect(first.stderr).toMatch(/dumping the class reference of Godot/);

    const dumps = readdirSync(path.join(cwd, '.cache/godot-doctool'));
    expect(dumps.length).toBe(1);
    expect(dumps[0]).toMatch(/^\d+\.\d+/);
    const marker = path.join(cwd, '.cache/godot-doctool', dumps[0], '.mcphost-doctool.json');
    const stamp = statSync(marker).mtimeMs;

    const second = await runCli(['call', 'godot', 'search', '--query', 'Node2D', '--limit', '1'], { cwd, env, timeout: 60_000 });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)[0].name).toBe('Node2D');
    expect(second.stderr).not.toMatch(/dumping/);
    expect(statSync(marker).mtimeMs).toBe(stamp);

    const doctor = await runCli(['doctor', '--plugins', 'godot'], { cwd, env, timeout: 60_000 });
    expect(doctor.exitCode).toBe(0);
    expect(doctor.stdout).toMatch(/\(Godot \d+\.\d+/);
  }, 180_000);
});

describe('godotBinary that cannot serve', () => {
  it('says the binary was not found and how to fix it', async () => {
    const cwd = project('missing', { godotBinary: path.join(tmp.dir, 'no-such-godot') });
    const r = await runCli(['call', 'godot', 'search', '--query', 'x'], { cwd, env: isolatedEnv(cwd) });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/no-such-godot was not found.*plugins\.godot\.godotBinary/s);
  });

  it('says when the program is not Godot', async () => {
    const cwd = project('not-godot', { godotBinary: process.execPath });
    const r = await runCli(['doctor', '--plugins', 'godot'], { cwd, env: isolatedEnv(cwd) });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toMatch(/--version printed no Godot version/);
  });
});

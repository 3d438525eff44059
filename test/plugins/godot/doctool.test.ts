// plugins.godot.godotBinary: the reference dumped by the user's own engine with --doctool, cached
// in the plugin's cache folder by engine version (through the host in-process; Godot itself runs). Needs a headless Godot: Debian's godot3-server
// (apt-get install godot3-server), or GODOT_BIN pointing at any Godot 3/4 binary.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctorReport } from '../../../src/app/inspect.ts';
import { isolatedEnv } from '../../helpers/cli.ts';
import { callInProcess } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { approve } from '../../helpers/trust.ts';

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

/** A project whose .mcprc.json the user approved (its godotBinary runs only then). */
async function project(name: string, section: Record<string, unknown>): Promise<string> {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.mcprc.json'), JSON.stringify({ plugins: { godot: section } }));
  await approve(dir);
  return dir;
}

const json = (outcome: Awaited<ReturnType<typeof callInProcess>>) => JSON.parse((outcome.result.content[0] as { text: string }).text);

describe.skipIf(!GODOT)('godotBinary with a real Godot', () => {
  it('dumps the reference once, caches it by version in the cache folder, and serves it', async () => {
    const cwd = await project('real', { godotBinary: GODOT });
    const env = isolatedEnv(cwd);
    const progress: string[] = [];
    const first = await callInProcess({
      cwd,
      env,
      plugin: 'godot',
      tool: 'get_symbol',
      args: { qname: 'Node.add_child' },
      timeoutMs: 120_000,
      onProgress: (p) => progress.push(p.message ?? ''),
    });
    expect(first.error).toBeUndefined();
    expect(first.result.structuredContent).toMatchObject({ kind: 'method', className: 'Node', name: 'add_child' });
    expect(progress.join('\n')).toMatch(/dumping the class reference of Godot/);

    const dumpRoot = path.join(cwd, '.cache/mcphost/godot/godot-doctool');
    const dumps = readdirSync(dumpRoot);
    expect(dumps.length).toBe(1);
    expect(dumps[0]).toMatch(/^\d+\.\d+/);
    const marker = path.join(dumpRoot, dumps[0], '.mcphost-doctool.json');
    const stamp = statSync(marker).mtimeMs;

    const again: string[] = [];
    const second = await callInProcess({
      cwd,
      env,
      plugin: 'godot',
      tool: 'search',
      args: { query: 'Node2D', limit: 1 },
      timeoutMs: 60_000,
      onProgress: (p) => again.push(p.message ?? ''),
    });
    expect(json(second)[0].name).toBe('Node2D');
    expect(again.join('\n')).not.toMatch(/dumping/);
    expect(statSync(marker).mtimeMs).toBe(stamp);

    const doctor = await doctorReport({ cwd, env, plugins: ['godot'], writeLog: () => undefined });
    expect(doctor.ok).toBe(true);
    expect(doctor.plugins[0].message).toMatch(/\(Godot \d+\.\d+/);
  }, 180_000);
});

describe('godotBinary that cannot serve', () => {
  it('says the binary was not found and how to fix it', async () => {
    const cwd = await project('missing', { godotBinary: path.join(tmp.dir, 'no-such-godot') });
    const outcome = await callInProcess({ cwd, env: isolatedEnv(cwd), plugin: 'godot', tool: 'search', args: { query: 'x' } });
    expect(outcome.error).toMatchObject({ kind: 'unavailable' });
    expect(outcome.error!.message).toMatch(/no-such-godot was not found.*plugins\.godot\.godotBinary/s);
  });

  it('says when the program is not Godot', async () => {
    const cwd = await project('not-godot', { godotBinary: process.execPath });
    const report = await doctorReport({ cwd, env: isolatedEnv(cwd), plugins: ['godot'], writeLog: () => undefined });
    expect(report.ok).toBe(false);
    expect(report.plugins[0].message).toMatch(/--version printed no Godot version/);
  });
});

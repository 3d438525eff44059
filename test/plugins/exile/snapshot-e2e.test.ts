// Snapshot mode end to end: the real CLI serving the exile plugin with `snapshot` set to the SDK
// client over stdio and HTTP, one-shot `mcphost call`, and `mcphost exile:snapshot` recording from
// a HUD stand-in.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../../helpers/cli.ts';
import { connectStdio, startHttp } from '../../helpers/mcp.ts';
import { FIXTURES } from '../../helpers/paths.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/load.ts';
import { generateSnapshot } from '../../fixtures/exile/generate.js';
import { canonical } from './canonical.ts';
import { componentOf, entitiesOf, fixtureText, rawFixture, type Raw } from './fixture.ts';

const FAKE_HUD = path.join(FIXTURES, 'exile/fake-hud.js');

const dir = tempDir('mcphost-exile-');
let raw: Raw;
const vector = (v: Raw) => ({ X: v.X, Y: v.Y, Z: v.Z });

beforeAll(() => {
  raw = rawFixture();
  dir.write('state.json', fixtureText());
  dir.write('.mcprc', JSON.stringify({ plugins: { exile: { snapshot: 'state.json' } } }));
});

describe('snapshot tools served by mcphost', () => {
  it('over stdio: the three tools list and answer, errors carry the position', async () => {
    const session = await connectStdio(['--plugins', 'exile'], { cwd: dir.dir });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['exile_eval', 'exile_explore', 'exile_query']);
      const position = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.Position' } });
      expect(position.structuredContent).toEqual(vector(raw.roots.Player.Position));
      const hp = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.GetComponent<Life>().CurHP' } });
      expect((hp.content as Array<{ text: string }>)[0].text).toBe(String(componentOf(raw.roots.Player, 'Life')!.CurHP));
      const near = await session.client.callTool({
        name: 'exile_query',
        arguments: { from: 'Entities', where: 'Distance < 50 && IsHostile', orderBy: 'Distance', take: 10, select: 'Id' },
      });
      const expected = entitiesOf(raw)
        .filter((e) => e.Distance < 50 && e.IsHostile)
        .sort((a, b) => a.Distance - b.Distance);
      expect((near.structuredContent as Raw).items).toEqual(expected.slice(0, 10).map((e) => e.Id));
      const bad = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.GetComponent<Life>().CurHP)' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0].text).toMatch(/unexpected token '\)' at 33/);
      expect((bad._meta as Raw)['mcphost/error']).toMatchObject({ code: 'EXPR_SYNTAX', data: { position: 33 } });
      const live = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.DistanceFrom(Entities[0])' } });
      expect((live._meta as Raw)['mcphost/error']).toMatchObject({
        code: 'NOT_IN_SNAPSHOT',
        message: expect.stringMatching(/^not available in a snapshot: Entity\.DistanceFrom\(\)/),
      });
      const deep = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player', depth: 99 } });
      expect(deep.isError).toBe(true);
      expect(JSON.stringify(deep.content)).toMatch(/depth/);
    } finally {
      await session.close();
    }
  });

  it('over HTTP: explore answers with the HUD shapes', async () => {
    const server = await startHttp(['--plugins', 'exile'], { cwd: dir.dir });
    try {
      const client = await server.connect();
      const life = await client.callTool({ name: 'exile_explore', arguments: { target: 'type:Life' } });
      expect(life.structuredContent).toEqual(raw.types['ExileCore.PoEMemory.Components.Life']);
      const roots = await client.callTool({ name: 'exile_explore', arguments: {} });
      expect((roots.structuredContent as Raw).members.filter((m: Raw) => m.available !== false).map((m: Raw) => m.name)).toEqual(
        Object.keys(raw.roots),
      );
    } finally {
      await server.stop();
    }
  });

  it('mcphost call: answers, tool errors exit 5, a missing snapshot exits 4', async () => {
    const hp = await runCli(['call', 'exile', 'eval', '--expr', 'Player.GetComponent<Life>().CurHP'], { cwd: dir.dir });
    expect(hp.exitCode).toBe(0);
    expect(hp.stdout).toBe(String(componentOf(raw.roots.Player, 'Life')!.CurHP));
    const args = JSON.stringify({ from: 'Entities', select: 'Type.ToString()' });
    const grouped = await runCli(['call', 'exile', 'query', '--args', args, '--json'], { cwd: dir.dir });
    expect(grouped.exitCode).toBe(0);
    const counts = JSON.parse(grouped.stdout)
      .structuredContent.items.map((g: Raw) => [g.Key, g.Count])
      .sort();
    const byType = new Map<string, number>();
    for (const e of entitiesOf(raw)) byType.set(e.Type.$enum, (byType.get(e.Type.$enum) ?? 0) + 1);
    expect(counts).toEqual([...byType].sort());
    const bad = await runCli(['call', 'exile', 'eval', '--expr', 'Player.Foo)'], { cwd: dir.dir });
    expect(bad.exitCode).toBe(5);
    expect(bad.stderr).toMatch(/unexpected token '\)' at 10/);
    const missing = await runCli(['call', 'exile', 'eval', '--expr', 'Player.Id', '--snapshot', 'nope.json'], { cwd: dir.dir });
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/snapshot .*nope\.json does not exist/);
  });
});

describe('mcphost doctor in snapshot mode', () => {
  it('loads the snapshot to check it, and names the file and the problem when it is not one', async () => {
    dir.write('not-a-snapshot.json', JSON.stringify({ format: 'something-else', version: 1 }));
    const bad = await runCli(['doctor', '--plugins', 'exile'], {
      cwd: dir.dir,
      env: isolatedEnv(dir.dir, { EXILE_SNAPSHOT: 'not-a-snapshot.json' }),
    });
    expect(bad.exitCode).toBe(4);
    expect(bad.stdout).toContain(`snapshot ${path.join(dir.dir, 'not-a-snapshot.json')}: not an mcphost exile snapshot`);
    const good = await runCli(['doctor', '--plugins', 'exile'], { cwd: dir.dir });
    expect(good.exitCode).toBe(0);
    expect(good.stdout).toContain(`serving the snapshot ${path.join(dir.dir, 'state.json')}`);
  });
});

describe('mcphost exile:snapshot', () => {
  it('needs --out', async () => {
    const result = await runCli(['exile:snapshot'], { cwd: dir.dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/--out is required/);
  });

  describe('recording from a HUD stand-in', () => {
    let hud: ReturnType<typeof execa> | undefined;
    let url = '';
    // A smaller game state than the fixture keeps the ~10 explore calls per entity quick.
    const live = JSON.stringify(generateSnapshot({ entities: 60, seed: 11 }));

    beforeAll(async () => {
      hud = execa(process.execPath, [FAKE_HUD, dir.write('hud.json', live)], { reject: false });
      url = await new Promise<string>((resolve, reject) => {
        let out = '';
        hud!.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening (\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        void hud!.then((r) => reject(new Error(`fake HUD exited: ${r.stderr}`)));
      });
      dir.write('.mcprc', JSON.stringify({ plugins: { exile: { url, snapshot: 'state.json' } } }));
    });
    afterAll(async () => {
      hud?.kill('SIGTERM');
      await hud;
    });

    it('records the HUD into a file that serves the same answers', async () => {
      const result = await runCli(['exile:snapshot', '--out', 'recorded.json', '--depth', '12', '--types', '*', '--json'], {
        cwd: dir.dir,
        timeout: 60_000,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary).toMatchObject({ out: path.join(dir.dir, 'recorded.json'), url, roots: Object.keys(raw.roots) });
      expect(result.stderr).toMatch(/progress \d+\/\d+/);
      const recorded = parseSnapshot(readFileSync(path.join(dir.dir, 'recorded.json'), 'utf8'));
      expect(canonical(recorded, { shortEmpty: true })).toEqual(canonical(parseSnapshot(live), { shortEmpty: true }));
      const player = JSON.parse(live).roots.Player;
      const hp = await runCli(['call', 'exile', 'eval', '--snapshot', 'recorded.json', '--expr', 'Player.Components["Life"].CurHP'], {
        cwd: dir.dir,
      });
      expect(hp.stdout).toBe(String(player.Components.$entries.find(([k]: [string]) => k === 'Life')[1].CurHP));
    }, 90_000);

    it('a HUD that is not running exits 4 and writes nothing', async () => {
      const result = await runCli(['exile:snapshot', '--out', 'never.json', '--url', 'http://127.0.0.1:9/mcp'], { cwd: dir.dir });
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toMatch(/127\.0\.0\.1:9/);
      expect(existsSync(path.join(dir.dir, 'never.json'))).toBe(false);
    });
  });
});

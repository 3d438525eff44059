// Snapshot mode through the host in-process: `mcphost call`'s path, `serve`'s with the official SDK
// client, `doctor`'s, and the exile:snapshot command's when the HUD is down. The real binary is
// exercised in snapshot-e2e.test.ts (one smoke per transport, and the recording command).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { doctorReport } from '../../../src/app/inspect.ts';
import { runPluginCommand } from '../../../src/app/plugin-command.ts';
import { isolatedEnv } from '../../helpers/cli.js';
import { callInProcess, serveInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { componentOf, entitiesOf, fixtureText, rawFixture, type Raw } from './fixture.ts';

const dir = tempDir('mcphost-exile-');
let raw: Raw;
const text = (outcome: { result: { content: unknown[] } }) => (outcome.result.content[0] as { text: string }).text;
const call = (tool: string, args: Record<string, unknown>, flags: Array<{ name: string; value: string; text: string }> = []) =>
  callInProcess({ cwd: dir.dir, plugin: 'exile', tool, args, flags });

beforeAll(() => {
  raw = rawFixture();
  dir.write('state.json', fixtureText());
  dir.write('.mcprc', JSON.stringify({ plugins: { exile: { snapshot: 'state.json' } } }));
});

describe('snapshot mode through the host', () => {
  it('mcphost call: answers, groups, reports expression errors with their position, and a missing file', async () => {
    const hp = await call('eval', { expr: 'Player.GetComponent<Life>().CurHP' });
    expect(text(hp)).toBe(String(componentOf(raw.roots.Player, 'Life')!.CurHP));
    const grouped = await call('query', { from: 'Entities', select: 'Type.ToString()' });
    const counts = (grouped.result.structuredContent as Raw).items.map((g: Raw) => [g.Key, g.Count]).sort();
    const byType = new Map<string, number>();
    for (const e of entitiesOf(raw)) byType.set(e.Type.$enum, (byType.get(e.Type.$enum) ?? 0) + 1);
    expect(counts).toEqual([...byType].sort());
    const bad = await call('eval', { expr: 'Player.Foo)' });
    expect(bad.error).toMatchObject({
      kind: 'tool_error',
      code: 'EXPR_SYNTAX',
      message: expect.stringMatching(/unexpected token '\)' at 10/),
    });
    const missing = await call('eval', { expr: 'Player.Id' }, [{ name: 'snapshot', value: 'nope.json', text: '--snapshot' }]);
    expect(missing.error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/snapshot .*nope\.json does not exist/) });
  });

  it('serve: explore answers with the HUD shapes over the SDK client', async () => {
    const session = await serveInProcess({ cwd: dir.dir });
    try {
      const life = await session.client.callTool({ name: 'exile_explore', arguments: { target: 'type:Life' } });
      expect(life.structuredContent).toEqual(raw.types['ExileCore.PoEMemory.Components.Life']);
      const roots = await session.client.callTool({ name: 'exile_explore', arguments: {} });
      expect((roots.structuredContent as Raw).members.filter((m: Raw) => m.available !== false).map((m: Raw) => m.name)).toEqual(
        Object.keys(raw.roots),
      );
      const big = await session.client.callTool({
        name: 'exile_eval',
        arguments: { expr: `"aaaaaaaaaa"${'.Replace("a","aaaaaaaaaa")'.repeat(7)}` },
      });
      expect(big.isError).toBe(true);
      expect((big._meta as Raw)['mcphost/error']).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/^too large/) });
    } finally {
      await session.close();
    }
  });

  it('doctor loads the snapshot to check it, and names the file and the problem when it is not one', async () => {
    dir.write('not-a-snapshot.json', JSON.stringify({ format: 'something-else', version: 1 }));
    const bad = await doctorReport({
      cwd: dir.dir,
      env: isolatedEnv(dir.dir, { EXILE_SNAPSHOT: 'not-a-snapshot.json' }) as NodeJS.ProcessEnv,
    });
    expect(bad.plugins[0]).toMatchObject({
      ok: false,
      message: expect.stringContaining(`snapshot ${path.join(dir.dir, 'not-a-snapshot.json')}: not an mcphost exile snapshot`),
    });
    const good = await doctorReport({ cwd: dir.dir, env: isolatedEnv(dir.dir) as NodeJS.ProcessEnv });
    expect(good.plugins[0]).toMatchObject({ ok: true, message: `serving the snapshot ${path.join(dir.dir, 'state.json')}` });
  });

  it('exile:snapshot with the HUD down fails as unavailable and writes nothing', async () => {
    const out = path.join(dir.dir, 'never.json');
    await expect(
      runPluginCommand({
        cwd: dir.dir,
        env: isolatedEnv(dir.dir) as NodeJS.ProcessEnv,
        plugin: 'exile',
        command: 'snapshot',
        args: { out, url: 'http://127.0.0.1:9/mcp' },
      }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/127\.0\.0\.1:9/) });
    expect(existsSync(out)).toBe(false);
  });
});

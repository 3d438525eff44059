// The patch-day check, `mcphost exile:snapshot --check last.json`: the paths a snapshot holds,
// asked of the live HUD, and those that no longer resolve or changed type reported. The HUD is the
// replica of ExileApi (test/fixtures/exile-hud/replica), once as recorded and once as a patch left
// it, with Life.CurHP renamed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';
import { checkSnapshot } from '../../../plugins/exile/snapshot/check.ts';
import { recordSnapshot } from '../../../plugins/exile/snapshot/record/record.ts';
import { startReplicaHud, type FakeHud } from '../../fixtures/exile-hud/start.ts';
import { replicaProvider } from '../../fixtures/exile-hud/replica/provider.mjs';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tmp.ts';

const quiet = { error() {}, warn() {}, info() {}, debug() {}, child: () => quiet };
const dir = tempDir('exile-check-');
const file = path.join(dir.dir, 'last.json');
const LIFE_CURHP = 'Player._cacheComponents["ExileCore.PoEMemory.Components.Life"].CurHP';
const options = () => ({ maxPaths: 2_000, maxDepth: 6, signal: new AbortController().signal });

describe('exile:snapshot --check', () => {
  let patched: FakeHud;
  beforeAll(async () => {
    const doc = await recordSnapshot(replicaProvider({ entities: 8, modules: 4 }) as ExileProvider, { logger: quiet });
    writeFileSync(file, JSON.stringify(doc));
    patched = await startReplicaHud({ entities: 8, modules: 4, rename: { CurHP: 'CurrentHP' } });
  }, 60_000);
  afterAll(() => patched?.stop());

  it('finds nothing wrong against the HUD it was recorded from', async () => {
    const report = await checkSnapshot(file, replicaProvider({ entities: 8, modules: 4 }) as ExileProvider, options());
    expect(report.checked).toBeGreaterThan(100);
    expect(report.missing).toEqual([]);
    expect(report.changed).toEqual([]);
    expect(report.resolved).toBe(report.checked);
  });

  it('names each path a patch renamed, with the HUD’s message, and nothing else', async () => {
    const renamed = replicaProvider({ entities: 8, modules: 4, renamed: { CurHP: 'CurrentHP' } }) as ExileProvider;
    const report = await checkSnapshot(file, renamed, options());
    expect(report.missing.length).toBeGreaterThan(0);
    for (const m of report.missing) expect(m.path).toMatch(/\.CurHP$/);
    // Life is recorded where breadth-first met it first (Components["Life"] refers to it there).
    expect(report.missing.map((m) => m.path)).toContain(LIFE_CURHP);
    expect(report.missing[0].error).toMatch(/member 'CurHP' not found on ExileCore\.PoEMemory\.Components\.Life/);
    expect(report.changed).toEqual([]);
  });

  it('through the real binary, against the patched HUD over HTTP', async () => {
    const result = await runCli(['exile:snapshot', '--check', file, '--url', patched.url, '--json'], { cwd: dir.dir, timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ok: false, changed: [] });
    expect(report.missing.map((m: { path: string }) => m.path)).toContain(LIFE_CURHP);
    const text = await runCli(['exile:snapshot', '--check', file, '--url', patched.url], { cwd: dir.dir, timeout: 60_000 });
    expect(text.stdout).toMatch(
      /^checked \d+ paths of .*last\.json against http:\/\/127\.0\.0\.1:\d+\/mcp: [1-9]\d* no longer resolve, 0 changed type/,
    );
    expect(text.stdout).toContain(`gone     ${LIFE_CURHP}: member 'CurHP' not found`);
    // Neither --out nor --check: the error says both.
    const neither = await runCli(['exile:snapshot', '--url', patched.url], { cwd: dir.dir });
    expect(neither.exitCode).not.toBe(0);
    expect(neither.stderr).toContain('Expected --out FILE (where to write the snapshot), or --check FILE');
  }, 90_000);
});

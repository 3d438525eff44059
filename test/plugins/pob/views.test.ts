// pob's views in a real browser (test/helpers/app-host), served by a real `mcphost serve
// --transport http`, on the public PoB builds of ../shared/data/pob-builds: the build panel and
// the comparison show their tool's structured result (DOM values checked against it), and what
// the views call themselves (pob_encode for the share code, pob_analyze_build for one side of a
// comparison) goes through the host to mcphost and comes back.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { launchAppHosts, type AppHosts } from '../../helpers/app-host/index.js';
import { startHttp, type HttpServer } from '../../helpers/mcp.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const BUILDS = path.join(SHARED_DATA, 'pob-builds');
const build = (name: string) => path.join(BUILDS, name);
const num = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(n);

let hosts: AppHosts;
let served: HttpServer;

beforeAll(async () => {
  const tmp = tempDir('pob-views-');
  // Clients over HTTP name only files inside the roots: the shared builds folder is one.
  // (A setting that widens what clients reach is taken only from a config named explicitly.)
  const config = tmp.write('mcprc.json', JSON.stringify({ files: { roots: [BUILDS] } }));
  [hosts, served] = await Promise.all([
    launchAppHosts(),
    startHttp(['--plugins', 'pob'], { cwd: tmp.dir, env: isolatedEnv(tmp.dir, { MCPHOST_CONFIG: config }) }),
  ]);
}, 60_000);

afterAll(async () => {
  await hosts?.close();
  await served?.stop();
});

interface Analysis {
  className: string;
  ascendClassName: string;
  level: number;
  mainSkill: { group: number; name: string; slot: string };
  skills: { groups: Array<{ index: number; main: boolean; gems: Array<{ name: string; level: number; quality: number }> }> };
  stats: Record<string, number>;
}

describe('pob views through mcphost serve', () => {
  for (const file of ['occvortex-3_26.xml', 'dual-wield-cospris-coc-3_26.xml']) {
    it(`analyze_build: the build panel shows ${file}'s class, main skill, defences, damage and resistances; Share code calls pob_encode`, async () => {
      const host = await hosts.open(served.url);
      try {
        const { report, frame } = await host.show('pob_analyze_build', { build: build(file) });
        expect(report.result.isError, JSON.stringify(report.result.content)).toBeFalsy();
        const a = report.result.structuredContent as unknown as Analysis;
        await expect
          .poll(() => frame.locator('#character').textContent())
          .toContain(`${a.ascendClassName} ${a.className} · level ${a.level}`);
        await expect
          .poll(() => frame.locator('#main-skill h2').textContent())
          .toBe(`Main skill: ${a.mainSkill.name} (${a.mainSkill.slot})`);
        const group = a.skills.groups.find((g) => g.main) ?? a.skills.groups.find((g) => g.index === a.mainSkill.group)!;
        expect(await frame.locator('#main-skill .gems li').allTextContents()).toEqual(
          group.gems.map((g) => `${g.name} ${g.level}/${g.quality}`),
        );
        for (const key of ['Life', 'EnergyShield', 'Mana', 'TotalEHP', 'FireResist', 'ColdResist', 'LightningResist', 'ChaosResist']) {
          const cell = frame.locator(`[data-stat="${key}"]`).first();
          expect(Number(await cell.getAttribute('data-value')), key).toBe(a.stats[key]);
          expect(await cell.locator('.value').textContent(), key).toContain(num(a.stats[key]));
        }
        const damage = ['FullDPS', 'CombinedDPS', 'TotalDPS', 'TotalDotDPS'].find((k) => (a.stats[k] ?? 0) > 0)!;
        expect(Number(await frame.locator('.tile.damage').getAttribute('data-value'))).toBe(a.stats[damage]);
        await host.screenshot(`pob-build-${file.replace('.xml', '')}`, { doc: file.startsWith('occvortex') });

        await frame.locator('#share').click();
        const call = await host.viewCall('pob_encode');
        expect(call.arguments).toEqual({ xml: build(file) });
        const code = (call.result?.content as Array<{ text: string }>)[0].text;
        expect(code).toMatch(/^[A-Za-z0-9_-]{100,}=*$/);
        await expect.poll(() => frame.locator('#code').textContent()).toBe(code);
        const decoded = await host.call('pob_decode', { code });
        expect((decoded.content as Array<{ text: string }>)[0].text).toContain(`className="${a.className}"`);
      } finally {
        await host.close();
      }
    });
  }

  it('compare_builds: the chart shows each headline stat’s change from A to B as the result says; A/B analyze that side (2026 era)', async () => {
    const host = await hosts.open(served.url, { era: 'modern' });
    try {
      const args = { a: build('occvortex-3_13.xml'), b: build('occvortex-3_26.xml') };
      const { report, frame } = await host.show('pob_compare_builds', args);
      const c = report.result.structuredContent as {
        stats: Record<string, { a?: number; b?: number; delta?: number; percent?: number }>;
        statsCompared: number;
        tree: { added: number[]; removed: number[] };
      };
      await expect.poll(() => frame.locator('#chart .change[data-stat]').count()).toBeGreaterThan(5);
      const rows = await frame.locator('#chart .change[data-stat]').evaluateAll((nodes) =>
        nodes.map((n) => ({
          stat: n.getAttribute('data-stat')!,
          delta: n.getAttribute('data-delta') ?? undefined,
          from: n.querySelector('.from')!.textContent,
          to: n.querySelector('.to')!.textContent,
          pct: n.querySelector('.pct')!.textContent,
          up: n.classList.contains('up'),
        })),
      );
      for (const row of rows) {
        const d = c.stats[row.stat];
        expect(d, row.stat).toBeDefined();
        expect(row.delta === undefined ? undefined : Number(row.delta), row.stat).toBe(d.delta);
        expect(row.from, row.stat).toBe(d.a === undefined ? '—' : num(d.a));
        expect(row.to, row.stat).toBe(d.b === undefined ? '—' : num(d.b));
        const pct =
          d.a === undefined
            ? 'new'
            : d.b === undefined
              ? 'gone'
              : d.percent === undefined
                ? 'from 0'
                : `${d.percent > 0 ? '+' : ''}${d.percent.toFixed(1)} %`;
        expect(row.pct, row.stat).toBe(pct);
        expect(row.up, row.stat).toBe((d.delta ?? 0) >= 0);
      }
      expect(rows.map((r) => r.stat)).toEqual(expect.arrayContaining(['Life', 'EnergyShield', 'Mana', 'CombinedDPS']));
      const others = await frame.locator('.others .change[data-stat]').count();
      expect(rows.length + others).toBe(Object.keys(c.stats).length);
      await expect.poll(() => frame.locator('#tree').textContent()).toContain(`+${c.tree.added.length} −${c.tree.removed.length}`);
      await host.screenshot('pob-compare', { doc: true });

      await frame.locator('#open-b').click();
      const call = await host.viewCall('pob_analyze_build');
      expect(call.arguments).toEqual({ build: args.b });
      const b = call.result?.structuredContent as unknown as Analysis;
      await expect
        .poll(() => frame.locator('#detail h2').textContent())
        .toBe(`B: ${b.ascendClassName}, level ${b.level}, ${b.mainSkill.name}`);
      await expect.poll(() => frame.locator('#detail .line').textContent()).toContain(`Life ${num(b.stats.Life)}`);
    } finally {
      await host.close();
    }
  });
});

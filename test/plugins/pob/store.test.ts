// The build store on real files: ids from content, sharing between store instances (as between
// host processes), damaged files, bounds, and a reader beside a writer in another process.
import { chmodSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BuildStore, buildIdOf } from '../../../plugins/pob/live/store.ts';
import { REPO, SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { fakeBuild } from './helpers.js';

const tmp = tempDir('mcphost-pob-store-');
const sub = (name: string) => path.join(tmp.dir, name);
const warnings: string[] = [];
const logger = { debug: () => undefined, warn: (m: string) => void warnings.push(m) };
const store = (dir: string, bounds: { maxBuilds?: number; maxBytes?: number } = {}) =>
  new BuildStore({ dir, maxBuilds: bounds.maxBuilds ?? 100, maxBytes: bounds.maxBytes ?? 1 << 30, logger });
const REAL = readFileSync(path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml'), 'utf8');

describe('build store', () => {
  it('names a build by its content: the same build from Windows or with a BOM has one id, another build another', () => {
    const id = buildIdOf(REAL);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(buildIdOf(`\uFEFF${REAL.replace(/\n/g, '\r\n')}\r\n`)).toBe(id);
    expect(buildIdOf(REAL.replace('level="99"', 'level="98"'))).not.toBe(id);
  });

  it('keeps each build as <build_id>.xml that another store on the same folder reads', async () => {
    const dir = sub('shared');
    const id = await store(dir).put(REAL);
    expect(readdirSync(dir)).toEqual([`${id}.xml`]);
    expect(await store(dir).get(id)).toBe(REAL.trim());
    expect(await store(dir).has(id)).toBe(true);
    expect(await store(dir).get('0'.repeat(32))).toBeUndefined();
    expect(await store(dir).get('../../etc/passwd')).toBeUndefined();
  });

  it('drops a file that does not hold the build its name says (cut short by a copy that was not atomic)', async () => {
    const dir = sub('damaged');
    const s = store(dir);
    const id = await s.put(REAL);
    writeFileSync(path.join(dir, `${id}.xml`), REAL.slice(0, 1000));
    expect(await s.get(id)).toBeUndefined();
    expect(existsSync(path.join(dir, `${id}.xml`))).toBe(false);
    expect(warnings.join('\n')).toMatch(new RegExp(`${id}.xml does not hold the build its name says`));
    // Storing it again repairs it.
    expect(await s.put(REAL)).toBe(id);
    expect(await s.get(id)).toBe(REAL.trim());
  });

  it('writes one intact file when many put the same build at once', async () => {
    const dir = sub('same');
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => store(dir).put(i % 2 ? REAL : `${REAL}\n`)));
    expect(new Set(ids).size).toBe(1);
    expect(readdirSync(dir)).toEqual([`${ids[0]}.xml`]);
    expect(await store(dir).get(ids[0])).toBe(REAL.trim());
  });

  it('keeps the most recently used builds within its count and size, and clears old temporary files', async () => {
    const dir = sub('bounded');
    const s = store(dir, { maxBuilds: 3 });
    const ids: string[] = [];
    for (let level = 1; level <= 5; level++) {
      const id = await s.put(fakeBuild({ level }));
      ids.push(id);
      const at = new Date(Date.now() - (10 - level) * 60_000);
      utimesSync(path.join(dir, `${id}.xml`), at, at);
    }
    // Reading the oldest marks it used.
    expect(await s.get(ids[0])).toBeDefined();
    writeFileSync(path.join(dir, `${ids[0]}.xml.123`), 'left by a writer that died');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(path.join(dir, `${ids[0]}.xml.123`), old, old);
    writeFileSync(path.join(dir, `${ids[1]}.xml.456`), 'being written now');
    await s.prune();
    expect(readdirSync(dir).sort()).toEqual(
      [ids[0], ids[3], ids[4]]
        .map((id) => `${id}.xml`)
        .concat(`${ids[1]}.xml.456`)
        .sort(),
    );

    const sized = store(sub('sized'), { maxBytes: 2 * fakeBuild().length });
    const kept = [
      await sized.put(fakeBuild({ level: 1 })),
      await sized.put(fakeBuild({ level: 2 })),
      await sized.put(fakeBuild({ level: 3 })),
    ];
    await sized.prune();
    expect(readdirSync(sub('sized')).length).toBeLessThanOrEqual(2);
    expect(await sized.get(kept[2])).toBeDefined();
  });

  it('says which folder to change when it cannot write', async () => {
    const dir = sub('readonly');
    await store(dir).put(fakeBuild({ level: 1 }));
    chmodSync(dir, 0o500);
    try {
      if (process.getuid?.() === 0) return; // root writes anyway
      await expect(store(dir).put(fakeBuild({ level: 2 }))).rejects.toThrow(
        /cannot write the build store at .*readonly .*set plugins.pob.lua.store \(POB_BUILD_STORE\) to a writable folder/,
      );
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('never shows a reader half a build while another process writes', async () => {
    const dir = sub('racing');
    const big = (n: number) => REAL.replace('<PathOfBuilding>', `<PathOfBuilding>\n<!-- ${n} ${'x'.repeat(3_000_000)} -->`);
    const ids = Array.from({ length: 12 }, (_, n) => buildIdOf(big(n)));
    const writer = execa(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { BuildStore } from ${JSON.stringify(path.join(REPO, 'dist/plugins/pob/live/store.js'))};
         import { readFileSync } from 'node:fs';
         const real = readFileSync(${JSON.stringify(path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml'))}, 'utf8');
         const s = new BuildStore({ dir: ${JSON.stringify(dir)}, maxBuilds: 1000, maxBytes: 2 ** 40, logger: console });
         for (let n = 0; n < 12; n++) await s.put(real.replace('<PathOfBuilding>', '<PathOfBuilding>\\n<!-- ' + n + ' ' + 'x'.repeat(3000000) + ' -->'));`,
      ],
      { reject: false, input: '' },
    );
    warnings.length = 0;
    const reader = store(dir);
    let seen = 0;
    let done = false;
    void writer.finally(() => (done = true));
    while (!done) {
      for (const [n, id] of ids.entries()) {
        const text = await reader.get(id);
        if (text === undefined) continue;
        expect(text).toBe(big(n).trim());
        seen++;
      }
    }
    expect((await writer).exitCode, (await writer).stderr as string).toBe(0);
    expect(seen).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(ids.map((id) => `${id}.xml`).sort());
  });
});

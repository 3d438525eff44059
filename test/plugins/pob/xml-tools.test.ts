// The XML tools on every real build in ../shared/data/pob-builds and on share codes made from
// them, plus the garbage a user may paste. The handlers are called as the registry calls them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { xmlTools } from '../../../plugins/pob/build/xml-tools.ts';
import { analyzeBuild } from '../../../plugins/pob/build/analyze.ts';
import { readBuildText } from '../../../plugins/pob/build/build-input.ts';
import { parseBuildXml } from '../../../plugins/pob/build/xml.ts';
import { encodeShareCodeSync as encodeShareCode } from '../../../plugins/pob/build/share-code.ts';
import { parseItemText } from '../../../plugins/pob/build/item-text.ts';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const BUILDS = path.join(SHARED_DATA, 'pob-builds');
const files = readdirSync(BUILDS)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const tool = (name: string) => xmlTools.find((t) => t.name === name)!;
const run = (name: string, args: Record<string, unknown>): Promise<any> => Promise.resolve(tool(name).handler(args as never, {} as never));
const tmp = tempDir('mcphost-pob-xml-');

async function failure(fn: () => unknown): Promise<{ message: string; code: unknown }> {
  try {
    await fn();
  } catch (error) {
    return { message: (error as Error).message, code: (error as { code?: unknown }).code };
  }
  throw new Error('expected a failure');
}

/** What the file itself says, read with plain regular expressions (independent of the parser). */
function facts(xml: string) {
  const build = /<Build\s[^>]*>/.exec(xml)![0];
  const get = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const stats = new Map<string, number>();
  for (const m of xml.matchAll(/<PlayerStat\s([^>]*)\/>/g)) stats.set(get(` ${m[1]}`, 'stat')!, Number(get(` ${m[1]}`, 'value')));
  const spec = /<Spec\s[^>]*>/.exec(xml)![0];
  return {
    className: get(build, 'className'),
    ascendClassName: get(build, 'ascendClassName'),
    level: Number(get(build, 'level')),
    stats,
    nodes: get(spec, 'nodes')!.split(',').filter(Boolean).map(Number),
    treeVersion: get(spec, 'treeVersion'),
    gems: [...xml.matchAll(/<Gem\s/g)].length,
    equipped: [.../<ItemSet[\s\S]*?<\/ItemSet>/.exec(xml)![0].matchAll(/<Slot\s[^>]*itemId="[1-9]/g)].length,
  };
}

describe('pob XML tools on the shared builds', () => {
  expect(files.length).toBeGreaterThanOrEqual(5);

  it.each(files)('analyze_build reads %s', async (file) => {
    const xml = readFileSync(path.join(BUILDS, file), 'utf8');
    const want = facts(xml);
    const result = await run('analyze_build', { build: path.join(BUILDS, file) });
    const a = result.structuredContent;
    expect(a.source).toBe('file');
    expect(a.className).toBe(want.className);
    expect(a.ascendClassName).toBe(want.ascendClassName === 'None' ? undefined : want.ascendClassName);
    expect(a.level).toBe(want.level);
    expect(a.tree.version).toBe(want.treeVersion);
    expect(a.tree.nodes).toEqual(want.nodes);
    expect(Object.keys(a.stats).length).toBe(want.stats.size);
    for (const [name, value] of want.stats) expect(a.stats[name]).toBe(value);
    const gems = a.skills.groups.flatMap((g: { gems: unknown[] }) => g.gems);
    expect(gems.length).toBe(want.gems);
    expect(a.mainSkill?.name).toBeTruthy();
    expect(a.items.equipped.length).toBe(want.equipped);
    for (const item of a.items.equipped) {
      expect(item.name).toBeTruthy();
      expect(item.rarity).toMatch(/^(NORMAL|MAGIC|RARE|UNIQUE|RELIC)$/);
    }
    expect(result.content[0].text).toContain(`${want.className}`);
  });

  it.each(files)('a share code of %s decodes back to the same XML and analysis', async (file) => {
    const xml = readFileSync(path.join(BUILDS, file), 'utf8');
    const code = await run('encode', { xml });
    expect(code).toMatch(/^eN[A-Za-z0-9_-]+=*$/);
    expect(inflateSync(Buffer.from(code.replace(/-/g, '+').replace(/_/g, '/'), 'base64')).toString('utf8')).toBe(xml.trim());
    expect(await run('decode', { code })).toBe(xml.trim());
    const fromCode = (await run('analyze_build', { build: code })).structuredContent;
    const fromXml = (await run('analyze_build', { build: xml })).structuredContent;
    expect(fromCode.source).toBe('code');
    expect({ ...fromCode, source: 'x' }).toEqual({ ...fromXml, source: 'x' });
  });

  it('reads the active item set, skill set and config set of the 3.26 build', async () => {
    const a = analyzeBuild(parseBuildXml((await readBuildText(path.join(BUILDS, 'occvortex-3_26.xml'))).xml));
    expect(a.mainSkill).toMatchObject({ group: 5, name: 'Vortex', slot: 'Body Armour' });
    const shield = a.items.equipped.find((i) => i.slot === 'Weapon 2')!;
    expect(shield).toMatchObject({ name: 'Loath Sanctuary', base: 'Vaal Spirit Shield', rarity: 'RARE', corrupted: true });
    expect(shield.implicits).toEqual(['9% increased Spell Damage']);
    expect(shield.explicits).toContain('+87 to maximum Life');
    expect(a.items.jewels.map((j) => j.slot).sort()).toEqual(['Jewel 36634', 'Jewel 41263', 'Jewel 61419']);
    expect(a.config.inputs).toMatchObject({ useEnduranceCharges: true, conditionEnemyChilled: true });
    expect(a.config.placeholders.enemyLevel).toBe(84);
    expect(a.bandit).toBe('None');
  });

  it('compares two versions of a build: stat deltas, nodes, gems and items', async () => {
    const result = await run('compare_builds', { a: path.join(BUILDS, 'occvortex-3_13.xml'), b: path.join(BUILDS, 'occvortex-3_26.xml') });
    const c = result.structuredContent;
    const a = facts(readFileSync(path.join(BUILDS, 'occvortex-3_13.xml'), 'utf8'));
    const b = facts(readFileSync(path.join(BUILDS, 'occvortex-3_26.xml'), 'utf8'));
    expect(c.stats.Life).toEqual({
      a: a.stats.get('Life'),
      b: b.stats.get('Life'),
      delta: b.stats.get('Life')! - a.stats.get('Life')!,
      percent: expect.any(Number),
    });
    expect(c.tree.added).toEqual(b.nodes.filter((n) => !a.nodes.includes(n)).sort((x, y) => x - y));
    expect(c.tree.removed).toEqual(a.nodes.filter((n) => !b.nodes.includes(n)).sort((x, y) => x - y));
    expect(c.tree.a.version).toBe('3_13');
    expect(c.tree.b.version).toBe('3_26');
    expect(result.content[0].text).toMatch(/Saved stats: \d+ of \d+ differ/);
    const same = (
      await run('compare_builds', {
        a: path.join(BUILDS, 'occvortex-3_26.xml'),
        b: path.join(BUILDS, 'occvortex-3_26.xml'),
      })
    ).structuredContent;
    expect(same).toMatchObject({ stats: {}, character: {}, items: [], config: {}, gems: { added: [], removed: [], changed: [] } });
    expect(same.tree.added).toEqual([]);
  });

  it('reports gem and item edits between otherwise equal builds', async () => {
    const xml = readFileSync(path.join(BUILDS, 'occvortex-3_26.xml'), 'utf8');
    const edited = xml
      .replace('nameSpec="Vortex" enableGlobal2="true"', 'nameSpec="Vortex" enableGlobal2="true" ')
      .replace(/(skillId="Vortex" count="1" quality=")0(")/, '$120$2')
      .replace('+87 to maximum Life', '+99 to maximum Life');
    const c = (await run('compare_builds', { a: xml, b: edited })).structuredContent;
    expect(c.gems.changed).toEqual([
      { name: 'Vortex', a: { level: 21, quality: 0, enabled: true }, b: { level: 21, quality: 20, enabled: true } },
    ]);
    expect(c.items).toEqual([
      {
        slot: 'Weapon 2',
        a: 'Loath Sanctuary',
        b: 'Loath Sanctuary',
        modsAdded: ['+99 to maximum Life'],
        modsRemoved: ['+87 to maximum Life'],
      },
    ]);
  });

  it('accepts a file holding a share code and XML with surrounding whitespace', async () => {
    const xml = readFileSync(path.join(BUILDS, 'dual-savior-3_13.xml'), 'utf8');
    const file = tmp.write('savior.txt', `\n${encodeShareCode(xml)}\n`);
    expect(await run('decode', { code: file })).toBe(xml.trim());
    expect((await run('analyze_build', { build: `\n\n  ${xml}` })).structuredContent.className).toBe('Marauder');
  });
});

describe('pob XML tools on garbage', () => {
  it('says when a code is not base64, not zlib, or not a PoB document', async () => {
    expect(await failure(() => run('decode', { code: 'this is not a code!' }))).toMatchObject({
      code: 'BAD_SHARE_CODE',
      message: expect.stringMatching(/^code: not a share code: it contains "!", which is not base64/),
    });
    expect(await failure(() => run('decode', { code: Buffer.from('hello world, plain text').toString('base64') }))).toMatchObject({
      code: 'BAD_SHARE_CODE',
      message: expect.stringMatching(/not zlib data/),
    });
    const notPob = encodeShareCode('<html><body>hi</body></html>');
    expect(await failure(() => run('analyze_build', { build: notPob }))).toMatchObject({
      code: 'NOT_A_BUILD',
      message: expect.stringMatching(/root element is <html>, expected <PathOfBuilding>/),
    });
    const notXml = encodeShareCode('just some text');
    expect(await failure(() => run('decode', { code: notXml }))).toMatchObject({
      code: 'BAD_XML',
      message: expect.stringMatching(/^code: not valid XML/),
    });
  });

  it('names the field and the problem for broken XML, missing files, links and the wrong kind of input', async () => {
    expect(await failure(() => run('analyze_build', { build: '<PathOfBuilding><Build></PathOfBuilding>' }))).toMatchObject({
      code: 'BAD_XML',
      message: expect.stringMatching(/^build: not valid XML .* line 1/),
    });
    expect(
      await failure(() => run('compare_builds', { a: path.join(BUILDS, 'occvortex-3_26.xml'), b: './no/such/build.xml' })),
    ).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^b: no such file: .*no\/such\/build\.xml/),
    });
    expect(await failure(() => run('analyze_build', { build: 'https://pobb.in/abc123' }))).toMatchObject({
      message: expect.stringMatching(/links are not fetched/),
    });
    expect(await failure(() => run('encode', { xml: encodeShareCode('<PathOfBuilding/>') }))).toMatchObject({
      message: expect.stringMatching(/already a share code/),
    });
    expect(await failure(() => run('encode', { xml: '<Build/>' }))).toMatchObject({ code: 'NOT_A_BUILD' });
    const empty = tmp.write('empty.xml', '   \n');
    expect(await failure(() => run('analyze_build', { build: empty }))).toMatchObject({
      message: expect.stringMatching(/holds neither build XML nor a share code/),
    });
  });
});

describe('item text', () => {
  it('keeps the selected variant, tags crafted mods and reads properties', () => {
    const item = parseItemText(
      [
        'Rarity: UNIQUE',
        "Atziri's Foible",
        'Paua Amulet',
        'Variant: Old',
        'Variant: New',
        'Selected Variant: 2',
        'Implicits: 1',
        '{tags:mana}+20 to maximum Mana',
        '{variant:1}+100 to maximum Mana',
        '{variant:2}{range:0.5}+(50-70) to maximum Mana',
        '{crafted}+10% to Fire Resistance',
        'Mirrored',
      ].join('\n'),
    );
    expect(item).toMatchObject({
      rarity: 'UNIQUE',
      name: "Atziri's Foible",
      base: 'Paua Amulet',
      properties: { 'Selected Variant': '2' },
      implicits: ['+20 to maximum Mana'],
    });
    expect(item.explicits).toEqual(['+(50-70) to maximum Mana', '+10% to Fire Resistance (crafted)']);
    const magic = parseItemText(
      'Rarity: MAGIC\nBubbling Eternal Life Flask of Acceleration\nQuality: 20\nImplicits: 0\n31% increased Attack Speed during Effect',
    );
    expect(magic).toMatchObject({
      name: 'Bubbling Eternal Life Flask of Acceleration',
      base: undefined,
      properties: { Quality: '20' },
      explicits: ['31% increased Attack Speed during Effect'],
    });
  });
});

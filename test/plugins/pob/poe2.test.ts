// Path of Exile 2 builds (<PathOfBuilding2>, Path of Building 2) at the XML and share-code level,
// through `mcphost serve` in-process and the official SDK client: a real PoE2 export (test/fixtures/
// pob/poe2/titan-block.xml, from PathOfBuilding-PoE2's own spec fixtures; SOURCE.md there) decoded,
// re-encoded, analysed (weapon sets, Spirit, PoE2's stat keys) and compared; and the engine tools,
// which run Path of Building for PoE1, refusing a PoE2 build with the reason (game: poe2 says the
// PoE2 engine is not run by this mcphost).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { FIXTURES } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf, writeConfig } from '../../upstream/helpers.js';

const XML = readFileSync(path.join(FIXTURES, 'pob/poe2/titan-block.xml'), 'utf8');
/** A share code the way PoB 2 exports one (ImportTab.lua: zlib level 9, base64 with - and _). */
const CODE = deflateSync(Buffer.from(XML), { level: 9 }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
const sessions: InProcessSession[] = [];
afterEach(async () => Promise.all(sessions.splice(0).map((s) => s.close())));

async function serve(pob: Record<string, unknown> = {}) {
  // The engine tools are listed with lua enabled; none of these calls reaches luajit.
  const tmp = tempDir('mcphost-poe2-');
  writeConfig(tmp.dir, { plugins: { pob: { lua: { enabled: true }, ...pob } } });
  const s = await serveInProcess({ cwd: tmp.dir, plugins: ['pob'] });
  sessions.push(s);
  return s.client;
}

/** What the file says, read with regular expressions (not the parser under test). */
const attrOf = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const listOf = (tag: string) => attrOf(tag, 'nodes')!.split(',').map(Number);
const spec = /<Spec\s[^>]*>/.exec(XML)![0];
const set1 = listOf(/<WeaponSet1\s[^>]*>/.exec(XML)![0]);
const set2 = listOf(/<WeaponSet2\s[^>]*>/.exec(XML)![0]);

describe('PoE2 builds at the XML and share-code level', () => {
  it('decodes a PoE2 share code to its XML and encodes the XML back to a code that decodes the same', async () => {
    const client = await serve();
    const decoded = await client.callTool({ name: 'pob_decode', arguments: { code: CODE } });
    expect(decoded.isError).toBeFalsy();
    expect(textOf(decoded)).toBe(XML);
    const encoded = await client.callTool({ name: 'pob_encode', arguments: { xml: XML } });
    const code = textOf(encoded);
    expect(code).toMatch(/^[A-Za-z0-9_-]+=*$/);
    // The XML argument is taken trimmed: the code holds the document without its final newline.
    expect(inflateSync(Buffer.from(code.replace(/-/g, '+').replace(/_/g, '/'), 'base64')).toString('utf8')).toBe(XML.trim());
  });

  it('analyses it: class, weapon sets with their passive points, skills and items; no bandit or pantheon', async () => {
    const client = await serve();
    const fromXml = await client.callTool({ name: 'pob_analyze_build', arguments: { build: XML } });
    const a = fromXml.structuredContent as Record<string, any>;
    expect(a).toMatchObject({
      game: 'poe2',
      className: 'Warrior',
      ascendClassName: 'Titan',
      level: 100,
      targetVersion: '0_1',
      tree: { version: attrOf(spec, 'treeVersion'), nodeCount: listOf(spec).length },
      weaponSets: {
        active: 1,
        sets: [
          { set: 1, nodeCount: set1.length, nodes: set1 },
          { set: 2, nodeCount: set2.length, nodes: set2 },
        ],
      },
      mainSkill: { group: 3, name: 'Sunder' },
    });
    expect(set1.length).toBe(22);
    expect(a.bandit).toBeUndefined();
    expect(a.skills.groups.map((g: { gems: Array<{ name: string }> }) => g.gems[0].name)).toEqual([
      'Scavenged Plating',
      'War Banner',
      'Sunder',
      'Raise Shield',
    ]);
    const weapon = a.items.equipped.find((i: { slot: string }) => i.slot === 'Weapon 1');
    expect(weapon).toMatchObject({ name: 'Armageddon Shatter', base: 'Structured Hammer' });
    expect(textOf(fromXml)).toMatch(/^# Warrior \(Titan\) level 100 \(Path of Exile 2\)$/m);
    expect(textOf(fromXml)).toMatch(/^Weapon sets: set 1 in use; set 1 22 passive points, set 2 22 passive points$/m);
    expect(textOf(fromXml)).not.toMatch(/Bandit/);
    // The share code gives the same analysis.
    const fromCode = await client.callTool({ name: 'pob_analyze_build', arguments: { build: CODE } });
    const { source: _a, ...x } = a;
    const { source: _b, ...y } = fromCode.structuredContent as Record<string, any>;
    expect(y).toEqual(x);
  });

  it('reads Spirit and PoE2’s stat keys from <PlayerStat>, and compares two PoE2 builds by weapon set', async () => {
    const client = await serve();
    const stats =
      '<PlayerStat stat="Spirit" value="100"/><PlayerStat stat="SpiritUnreserved" value="23"/><PlayerStat stat="DeflectionRating" value="512"/>';
    const saved = XML.replace('<Buffs ', `${stats}<Buffs `);
    const analysed = (await client.callTool({ name: 'pob_analyze_build', arguments: { build: saved } })).structuredContent as any;
    expect(analysed.spirit).toEqual({ total: 100, unreserved: 23 });
    expect(analysed.stats).toMatchObject({ Spirit: 100, SpiritUnreserved: 23, DeflectionRating: 512 });
    // The same build with one passive point of weapon set 2 moved and the second set in use.
    const moved = saved
      .replace(`<WeaponSet2 nodes="${set2.join(',')}"`, `<WeaponSet2 nodes="${[...set2.slice(1), 12345].join(',')}"`)
      .replace('<ItemSet id="1" useSecondWeaponSet="false">', '<ItemSet id="1" useSecondWeaponSet="true">')
      .replace('stat="Spirit" value="100"', 'stat="Spirit" value="130"');
    const compared = (await client.callTool({ name: 'pob_compare_builds', arguments: { a: saved, b: moved } })).structuredContent as any;
    expect(compared.weaponSets).toEqual({
      sets: [
        { set: 1, added: [], removed: [] },
        { set: 2, added: [12345], removed: [set2[0]] },
      ],
      active: { a: 1, b: 2 },
    });
    expect(compared.stats.Spirit).toMatchObject({ a: 100, b: 130 });
    expect(compared.games).toBeUndefined();
  });

  it('the engine tools (Path of Building for PoE1) refuse a PoE2 build with the reason; game: poe2 says its engine is not run here', async () => {
    const poe1 = await serve();
    const refused = await poe1.callTool({ name: 'pob_lua_load_build', arguments: { build_xml: XML } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'pob_lua_load_build: this is a Path of Exile 2 build (<PathOfBuilding2>), and the engine here is Path of Building for Path of Exile 1',
    );
    const poe2 = await serve({ game: 'poe2' });
    const unavailable = await poe2.callTool({ name: 'pob_lua_get_stats', arguments: {} });
    expect(unavailable.isError).toBe(true);
    expect(textOf(unavailable)).toContain(
      'plugins.pob.game is poe2, and mcphost does not run the PathOfBuilding-PoE2 engine (it was not run here)',
    );
    // The XML tools read it either way.
    expect((await poe2.callTool({ name: 'pob_analyze_build', arguments: { build: CODE } })).structuredContent).toMatchObject({
      game: 'poe2',
    });
  });
});

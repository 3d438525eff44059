// The snapshot loader: what a valid document becomes (shared and circular objects, enums), and
// how an invalid one is refused (the path to the bad value, the format version).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSnapshot, parseSnapshot, MAX_GRAPH_NESTING } from '../../../plugins/exile/snapshot/serve/load.ts';
import { openSnapshotProvider } from '../../../plugins/exile/snapshot/index.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { DictValue, EnumValue, ListValue, type ObjectValue } from '../../../plugins/exile/snapshot/model.ts';
import { SNAPSHOT_VERSION } from '../../../plugins/exile/snapshot/format.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { ctx, entitiesOf, fixtureText, rawFixture, tools } from './fixture.ts';

const doc = (roots: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  format: 'mcphost-exile-snapshot',
  version: 1,
  roots,
  types: {},
  ...extra,
});
const entity = (extra: Record<string, unknown> = {}) => ({ $type: 'X.Entity', Id: 1, ...extra });

function loadError(input: unknown): string {
  try {
    parseSnapshot(typeof input === 'string' ? input : JSON.stringify(input));
  } catch (error) {
    const e = error as { where?: () => string; message: string };
    const where = e.where?.();
    return where ? `${where}: ${e.message}` : e.message;
  }
  throw new Error('expected the document to be refused');
}

describe('snapshot loader', () => {
  it('loads the fixture: shared objects are one object, cycles close, enums are shared', () => {
    const snapshot = parseSnapshot(fixtureText());
    const raw = rawFixture();
    expect([...snapshot.roots.keys()]).toEqual(Object.keys(raw.roots));
    expect(snapshot.types.size).toBe(Object.keys(raw.types).length);
    const player = snapshot.roots.get('Player') as ObjectValue;
    const list = snapshot.roots.get('Entities') as ListValue;
    expect(list.items.length).toBe(entitiesOf(raw).length);
    expect(list.items.find((e) => (e as ObjectValue).Id === player.Id)).toBe(player);
    const life = (player.Components as DictValue).map.get('Life') as ObjectValue;
    expect(life.Owner).toBe(player);
    expect(player.Type).toBeInstanceOf(EnumValue);
    const monsters = list.items.filter((e) => ((e as ObjectValue).Type as EnumValue).name === 'Monster');
    expect(new Set(monsters.map((m) => (m as ObjectValue).Type)).size).toBe(1);
    expect(snapshot.header).toMatchObject({ version: 1, recordedAt: raw.recordedAt });
  });

  it('accepts forward and backward references and string ids', () => {
    const snapshot = parseSnapshot(doc({ A: { $ref: 'b' }, B: { $type: 'T', $id: 'b', Self: { $ref: 'b' } } }));
    const b = snapshot.roots.get('B') as ObjectValue;
    expect(snapshot.roots.get('A')).toBe(b);
    expect(b.Self).toBe(b);
  });

  it('keeps a member named __proto__ a member (the prototype is never replaced)', async () => {
    const snapshot = parseSnapshot(
      '{"format":"mcphost-exile-snapshot","version":1,"roots":{"X":{"$type":"T","__proto__":{"$type":"U","A":1},"constructor":{"$type":"U","A":2}}}}',
    );
    const x = snapshot.roots.get('X') as ObjectValue;
    expect(Object.getPrototypeOf(x)).toBe(Object.prototype);
    const t = tools(createSnapshotProvider(snapshot));
    expect(await t.eval('X.__proto__.A')).toBe(1);
    expect(await t.eval('X.constructor.A')).toBe(2);
    expect(await t.eval('new { __proto__ = 5, B = 1 }')).toEqual(JSON.parse('{"__proto__":5,"B":1}'));
    await expect(t.eval('Camera.constructor')).rejects.toThrow(/not available in a snapshot: Camera at 0/);
  });

  it('refuses documents that are not snapshots, or newer than it reads', () => {
    expect(loadError('{ nope')).toMatch(/^not valid JSON/);
    expect(loadError([])).toMatch(/expected a JSON object/);
    expect(loadError({ format: 'something-else', version: 1, roots: {} })).toMatch(
      /not an mcphost exile snapshot: format is "something-else"/,
    );
    expect(loadError({ ...doc({}), version: SNAPSHOT_VERSION + 1 })).toMatch(
      /version 2 is newer than this mcphost reads \(1\): upgrade mcphost/,
    );
    expect(loadError({ ...doc({}), roots: 5 })).toMatch(/^roots: /);
    expect(loadError({ ...doc({}), types: { 'X.A': { type: 'X.A', kind: 'blob' } } })).toMatch(/^types\.X\.A\.kind: /);
    expect(loadError({ ...doc({}), types: { 'X.A': { type: 'X.B', kind: 'class' } } })).toMatch(
      /^types\.X\.A: type entry X\.A names itself X\.B/,
    );
  });

  it('names the path of a bad value in the graph', () => {
    const list = (values: unknown[]) => ({ $type: 'List<X.Entity>', $values: values });
    expect(loadError(doc({ Entities: list([entity(), entity({ Position: { X: 1 } })]) }))).toBe(
      'roots.Entities.$values[1].Position: object without "$type" (a string naming its type)',
    );
    expect(loadError(doc({ Player: entity({ Owner: { $ref: 99 } }) }))).toMatch(
      /\$ref 99 \(member Owner of a X\.Entity\) points at no object/,
    );
    expect(loadError(doc({ A: { $type: 'T', $id: 1 }, B: { $type: 'T', $id: 1 } }))).toBe('roots.B: duplicate "$id": 1');
    expect(loadError(doc({ Player: entity({ $weird: 1 }) }))).toMatch(/^roots\.Player: unknown key "\$weird"/);
    expect(loadError(doc({ Player: entity({ Tags: ['a'] }) }))).toMatch(/^roots\.Player\.Tags: a bare array is not a value/);
    expect(loadError(doc({ L: { $type: 'List<Int32>', $count: 1, $values: [1, 2] } }))).toMatch(
      /^roots\.L: "\$count" must be an integer ≥ the 2 recorded items/,
    );
    expect(loadError(doc({ P: entity({ Rarity: { $type: 'R', $enum: 'Rare' } }) }))).toMatch(
      /^roots\.P\.Rarity: an enum value has exactly/,
    );
    expect(
      loadError(
        doc({
          D: {
            $type: 'Dictionary<String, Int32>',
            $entries: [
              ['a', 1],
              ['a', 2],
            ],
          },
        }),
      ),
    ).toMatch(/^roots\.D\.\$entries\[1\]: duplicate key "a"/);
    expect(loadError(doc({ D: { $type: 'Dictionary<String, Int32>', $entries: [['a']] } }))).toMatch(
      /^roots\.D\.\$entries\[0\]: an entry must be a \[key, value\] pair/,
    );
    expect(loadError(doc({ P: entity({ $value: 5 }) }))).toMatch(/"\$value" \(display text\) must be a string/);
  });

  it('refuses a graph nested deeper than it walks, without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_GRAPH_NESTING + 10; i++) deep = { $type: 'Node', Next: deep };
    expect(loadError(doc({ Deep: deep }))).toMatch(/nested deeper than 1000 levels/);
  });

  it('serves partial recordings honestly: truncated objects and collections are "not available"', async () => {
    const snapshot = parseSnapshot(
      doc({
        Player: entity({
          Target: { $type: 'X.Entity', $value: 'Hillock', $truncated: true },
          Buffs: { $type: 'List<Buff>', $count: 5, $values: [{ $type: 'Buff', Name: 'a' }] },
        }),
        Entities: { $type: 'List<X.Entity>', $count: 3, $values: [entity({ Id: 7 }), entity({ Id: 8 })] },
      }),
    );
    const t = tools(createSnapshotProvider(snapshot));
    await expect(t.eval('Player.Target.Life')).rejects.toThrow(
      /^not available in a snapshot: Entity\.Life at 13 \(the object was recorded without its members: record with a larger --depth\)/,
    );
    expect(await t.eval('Player.Target')).toBe('Hillock');
    expect(await t.eval('Player.Buffs[0].Name')).toBe('a');
    expect(await t.eval('Player.Buffs.Count')).toBe(5);
    await expect(t.eval('Player.Buffs[3]')).rejects.toThrow(
      /^not available in a snapshot: List<Buff>\[3\] at 12 \(only the first 1 of 5 items were recorded\)/,
    );
    await expect(t.eval('Player.Buffs.Any(Name == "b")')).rejects.toThrow(/^not available in a snapshot: List<Buff>\.Any\(\)/);
    const answer = await t.query({ from: 'Entities', select: 'Id', where: 'Id > 0' });
    expect(answer).toMatchObject({ items: [7, 8], partial: true, recorded: 2, count: 3 });
  });

  it('reports a missing or broken file as unavailable, naming the file', async () => {
    const dir = tempDir();
    const missing = path.join(dir.dir, 'missing.json');
    await expect(loadSnapshot(missing)).rejects.toThrow(
      `snapshot ${missing} does not exist: record one with \`mcphost exile:snapshot --out ${missing}\``,
    );
    const bad = dir.write('bad.json', JSON.stringify(doc({ P: entity({ X: { $ref: 3 } }) })));
    await expect(openSnapshotProvider(bad)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(new RegExp(`^snapshot ${bad}: \\$ref 3`)),
    });
    const good = path.join(dir.dir, 'good.json');
    writeFileSync(good, fixtureText());
    const provider = await openSnapshotProvider(good);
    expect(await provider.eval({ expr: 'Player.Id', depth: 0 }, ctx())).toBe(rawFixture().roots.Player.Id);
    await provider.close();
    await provider.close();
  });
});

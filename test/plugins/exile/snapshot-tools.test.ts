// The examples, each checked against answers computed straight from the fixture's JSON
// (plain JavaScript over the document, not the snapshot loader or evaluator).
import { beforeAll, describe, expect, it } from 'vitest';
import { HUD_ROOTS } from '../../../plugins/exile/snapshot/format.ts';
import { componentOf, entitiesOf, fixtureProvider, rawFixture, tools, type Raw } from './fixture.ts';

const ENTITY = 'ExileCore.PoEMemory.MemoryObjects.Entity';
let raw: Raw;
let t: ReturnType<typeof tools>;
let player: Raw;

beforeAll(() => {
  raw = rawFixture();
  player = raw.roots.Player;
  t = tools(fixtureProvider());
});

const vector = (v: Raw) => Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('$')));
/** What explore shows as a member's value: primitives as-is, enums by name, structs inline. */
const shown = (v: any) =>
  v && typeof v === 'object' ? ('$enum' in v ? v.$enum : '$values' in v || '$entries' in v ? undefined : (v.$value ?? vector(v))) : v;
const typeMembers = (type: string): Raw[] => {
  const out: Raw[] = [];
  for (let info = raw.types[type]; info; info = raw.types[info.baseType])
    for (const m of info.members ?? []) if (!out.some((x) => x.name === m.name)) out.push(m);
  return out;
};

describe('explore on a snapshot', () => {
  it('explore "" lists the HUD roots, unrecorded ones marked unavailable', async () => {
    const answer = await t.explore({ target: '' });
    expect(answer.members.map((m: Raw) => m.name)).toEqual([...HUD_ROOTS]);
    for (const m of answer.members) {
      const v = raw.roots[m.name];
      if (v === undefined) expect(m).toMatchObject({ available: false });
      else expect(m.type).toBe(v.$type);
    }
    expect(answer.members.find((m: Raw) => m.name === 'Entities').count).toBe(entitiesOf(raw).length);
  });

  it('explore Player depth 1 lists every member with kind, type, access and value, and the methods', async () => {
    const answer = await t.explore({ target: 'Player', depth: 1 });
    expect(answer).toMatchObject({ path: 'Player', type: ENTITY, value: player.$value });
    const declared = typeMembers(ENTITY);
    expect(answer.members.map((m: Raw) => m.name)).toEqual(declared.map((m) => m.name));
    for (const m of answer.members) {
      const info = declared.find((d) => d.name === m.name)!;
      expect(m).toMatchObject({ kind: info.kind, type: info.type, access: info.access });
      const v = player[m.name];
      if (v?.$entries) expect(m).toMatchObject({ count: v.$entries.length });
      else expect(m.value).toEqual(shown(v));
    }
    const methods = [...raw.types[ENTITY].methods, ...raw.types[raw.types[ENTITY].baseType].methods];
    expect(answer.methods.map((m: Raw) => m.name).sort()).toEqual(methods.map((m: Raw) => m.name).sort());
    const offline = answer.methods
      .filter((m: Raw) => m.available !== false)
      .map((m: Raw) => m.name)
      .sort();
    expect(offline).toEqual(['GetComponent<T>', 'GetHashCode', 'HasComponent<T>', 'ToString']);
  });

  it('explore Player with includePrivate false hides private and internal members', async () => {
    const answer = await t.explore({ target: 'Player', depth: 1, includePrivate: false });
    const names = answer.members.map((m: Raw) => m.name);
    expect(names).toEqual(
      typeMembers(ENTITY)
        .filter((m) => m.access === 'public')
        .map((m) => m.name),
    );
    expect(answer.methods.every((m: Raw) => m.access === 'public')).toBe(true);
  });

  it('explore Player.Components depth 2 shows each component with its members', async () => {
    const answer = await t.explore({ target: 'Player.Components', depth: 2 });
    const entries: Array<[string, Raw]> = player.Components.$entries;
    expect(answer.count).toBe(entries.length);
    expect(answer.items.map((i: Raw) => i.key)).toEqual(entries.map(([k]) => k));
    for (const [i, [, component]] of entries.entries()) {
      const item = answer.items[i];
      expect(item).toMatchObject({ type: component.$type, value: component.$value });
      expect(item.members.map((m: Raw) => m.name)).toEqual(typeMembers(component.$type).map((m) => m.name));
      for (const m of item.members) {
        const v = component[m.name];
        if (m.name === 'Owner') expect(m.value).toBe(player.$value);
        else if (v?.$values) expect(m.count).toBe(v.$values.length);
        else expect(m.value).toEqual(shown(v));
      }
    }
  });

  it('explore type: gives the recorded type info with its attributes', async () => {
    const life = 'ExileCore.PoEMemory.Components.Life';
    expect(await t.explore({ target: `type:${life}` })).toEqual(raw.types[life]);
    expect(await t.explore({ target: 'type:Life' })).toEqual(raw.types[life]);
    const publicOnly = await t.explore({ target: 'type:Life', includePrivate: false });
    expect(publicOnly.members.map((m: Raw) => m.name)).toEqual(
      raw.types[life].members.filter((m: Raw) => m.access === 'public').map((m: Raw) => m.name),
    );
    const offsets = await t.explore({ target: 'type:ActorAnimationStageOffsets' });
    expect(offsets.kind).toBe('struct');
    expect(offsets.attributes).toEqual([{ name: 'StructLayout', args: { LayoutKind: 'Explicit', Pack: 1 } }]);
    expect(offsets.members.map((m: Raw) => [m.name, m.offset])).toEqual(
      raw.types['GameOffsets.ActorAnimationStageOffsets'].members.map((m: Raw) => [m.name, m.offset]),
    );
    const flags = await t.explore({ target: 'type:EntityStateFlags' });
    expect(flags).toMatchObject({ kind: 'enum', attributes: [{ name: 'Flags' }] });
    expect(flags.values).toEqual(raw.types['ExileCore.Shared.Enums.EntityStateFlags'].values);
  });

  it('explore search: matches type names and member names', async () => {
    const allMembers = Object.values(raw.types as Record<string, Raw>).flatMap((info: Raw) =>
      (info.members ?? []).map((m: Raw) => ({ type: info.type, name: m.name })),
    );
    const monster = await t.explore({ target: 'search:*Monster*' });
    expect(monster.types.map((x: Raw) => x.type).sort()).toEqual(
      Object.keys(raw.types)
        .filter((n) => /monster/i.test(n))
        .sort(),
    );
    expect(monster.members.map((x: Raw) => `${x.type}.${x.name}`).sort()).toEqual(
      allMembers
        .filter((m) => /monster/i.test(m.name))
        .map((m) => `${m.type}.${m.name}`)
        .sort(),
    );
    const curhp = await t.explore({ target: 'search:CurHP' });
    expect(curhp.types).toEqual([]);
    expect(curhp.members.map((x: Raw) => x.type).sort()).toEqual(
      allMembers
        .filter((m) => m.name.toLowerCase() === 'curhp')
        .map((m) => m.type)
        .sort(),
    );
    expect(curhp.members.length).toBeGreaterThanOrEqual(2);
    const offsets = await t.explore({ target: 'search:*Offsets' });
    expect(offsets.types.map((x: Raw) => x.type).sort()).toEqual(
      Object.keys(raw.types)
        .filter((n) => n.endsWith('Offsets'))
        .sort(),
    );
  });

  it('explore Entities[0] depth 2 expands nested members and summarises collections', async () => {
    const first = entitiesOf(raw)[0];
    const answer = await t.explore({ target: 'Entities[0]', depth: 2 });
    expect(answer).toMatchObject({ path: 'Entities[0]', type: first.$type, value: first.$value });
    const position = answer.members.find((m: Raw) => m.name === 'Position');
    expect(position.value).toEqual(vector(first.Position));
    const components = answer.members.find((m: Raw) => m.name === 'Components');
    expect(components.count).toBe(first.Components.$entries.length);
    expect(components.items.map((i: Raw) => [i.key, i.type, i.value])).toEqual(
      first.Components.$entries.map(([k, c]: [string, Raw]) => [k, c.$type, c.$value]),
    );
    const cache = answer.members.find((m: Raw) => m.name === '_cacheComp');
    expect(cache).toMatchObject({ access: 'private', kind: 'field' });
    expect(cache.items.map((i: Raw) => [i.key, i.value])).toEqual(first._cacheComp.$entries);
  });

  it('explore limits collections to `limit` items and marks the rest', async () => {
    const answer = await t.explore({ target: 'Entities', depth: 1, limit: 5 });
    expect(answer.count).toBe(entitiesOf(raw).length);
    expect(answer.items.map((i: Raw) => i.value)).toEqual(
      entitiesOf(raw)
        .slice(0, 5)
        .map((e) => e.$value),
    );
    expect(answer.truncated).toBe(true);
  });
});

describe('eval on a snapshot', () => {
  it('answers the HUD examples', async () => {
    const life = componentOf(player, 'Life')!;
    expect(await t.eval('Player.Position')).toEqual(vector(player.Position));
    expect(await t.eval('Player.GetComponent<Life>().CurHP')).toBe(life.CurHP);
    expect(await t.eval('Entities[0].RenderName')).toBe(entitiesOf(raw)[0].RenderName);
    expect(await t.eval('Player?.GetComponent<Life>()?.CurHP')).toBe(life.CurHP);
    expect(await t.eval('Player.GetComponent<Life>().HPPercentage > 0.5')).toBe(life.HPPercentage > 0.5);
    expect(await t.eval('Player.Components["Life"].MaxHP')).toBe(life.MaxHP);
    expect(await t.eval('Player._cacheComp["Life"]')).toBe(life.Address);
  });

  it('shows objects to the requested depth, and structs in full at any depth as the live HUD does', async () => {
    const shallow = await t.eval('Player', 1);
    expect(shallow.Position).toEqual(vector(player.Position));
    expect(await t.eval('Player.Position', 0)).toEqual(vector(player.Position));
    expect(shallow.Components).toEqual({ count: player.Components.$entries.length });
    const deeper = await t.eval('Player', 2);
    expect(deeper.Position).toEqual(vector(player.Position));
    expect(Object.keys(deeper.Components.items)).toEqual(player.Components.$entries.map(([k]: [string]) => k));
    expect(await t.eval('Player', 0)).toBe(player.$value);
  });
});

describe('query on a snapshot', () => {
  const entities = () => entitiesOf(raw);

  it('monsters with new { Id, RenderName, Position }', async () => {
    const answer = await t.query({
      from: 'Entities',
      where: 'Type.ToString() == "Monster"',
      select: 'new { Id, RenderName, Position }',
      take: 20,
    });
    const monsters = entities().filter((e) => e.Type.$enum === 'Monster');
    expect(answer.total).toBe(monsters.length);
    expect(answer.items).toEqual(monsters.slice(0, 20).map((e) => ({ Id: e.Id, RenderName: e.RenderName, Position: vector(e.Position) })));
  });

  it('rare items with Rarity >= 2, from the entity list and from the ground labels', async () => {
    const rare = entities().filter((e) => e.Type.$enum === 'Item' && e.Rarity.$value >= 2);
    const answer = await t.query({ from: 'Entities', where: 'Type == "Item" && Rarity >= 2', select: 'Id' });
    expect(answer.items).toEqual(rare.map((e) => e.Id));
    expect(rare.length).toBeGreaterThan(0);
    const labels = await t.query({
      from: 'IngameUi.ItemsOnGroundLabels',
      where: 'ItemOnGround != null && ItemOnGround.Rarity >= 2',
      select: 'new { ItemOnGround.Path, ItemOnGround.Rarity, Name = ItemOnGround.RenderName }',
    });
    const expected = raw.roots.IngameUi.ItemsOnGroundLabels.$values
      .map((l: Raw) => l.ItemOnGround)
      .filter((e: Raw) => e && e.Rarity.$value >= 2);
    expect(labels.items).toEqual(expected.map((e: Raw) => ({ Path: e.Path, Rarity: e.Rarity.$enum, Name: e.RenderName })));
  });

  it('buffs with Timer > 0, ordered by Timer desc', async () => {
    const answer = await t.query({
      from: 'Player.GetComponent<Buffs>().BuffsList',
      where: 'Timer > 0',
      select: 'new { Name, Timer, Charges }',
      orderBy: 'Timer desc',
    });
    const buffs = componentOf(player, 'Buffs')!.BuffsList.$values.filter((b: Raw) => b.Timer > 0);
    const expected = [...buffs]
      .sort((a: Raw, b: Raw) => b.Timer - a.Timer)
      .map((b: Raw) => ({ Name: b.Name, Timer: b.Timer, Charges: b.Charges }));
    expect(answer.items).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1);
  });

  it('Distance < 50 && IsHostile ordered by Distance, take 10', async () => {
    const answer = await t.query({ from: 'Entities', where: 'Distance < 50 && IsHostile', orderBy: 'Distance', take: 10 });
    const near = entities()
      .filter((e) => e.Distance < 50 && e.IsHostile)
      .sort((a, b) => a.Distance - b.Distance);
    expect(near.length).toBeGreaterThan(10);
    expect(answer.total).toBe(near.length);
    expect(answer.items.map((e: Raw) => [e.Id, e.Distance])).toEqual(near.slice(0, 10).map((e) => [e.Id, e.Distance]));
    expect(answer.items[0]).toMatchObject({ RenderName: near[0].RenderName, Position: vector(near[0].Position) });
  });

  it('Path.Contains("Portal")', async () => {
    const answer = await t.query({ from: 'Entities', where: 'Path.Contains("Portal")' });
    const portals = entities().filter((e) => e.Path.includes('Portal'));
    expect(answer.items.map((e: Raw) => e.Id)).toEqual(portals.map((e) => e.Id));
    expect(portals.some((e) => e.Type.$enum !== 'Portal')).toBe(true);
    expect(entities().some((e) => e.Type.$enum === 'Portal' && !e.Path.includes('Portal'))).toBe(true);
  });

  it('a single-value select with no where counts entities by type', async () => {
    const answer = await t.query({ from: 'Entities', select: 'Type.ToString()' });
    const counts = new Map<string, number>();
    for (const e of entities()) counts.set(e.Type.$enum, (counts.get(e.Type.$enum) ?? 0) + 1);
    expect(answer.grouped).toBe(true);
    expect(Object.fromEntries(answer.items.map((g: Raw) => [g.Key, g.Count]))).toEqual(Object.fromEntries(counts));
    const ordered = answer.items.map((g: Raw) => g.Count);
    expect(ordered).toEqual([...ordered].sort((a, b) => b - a));
    const byKey = await t.query({ from: 'Entities', select: 'Type.ToString()', orderBy: 'Key' });
    expect(byKey.items.map((g: Raw) => g.Key)).toEqual([...counts.keys()].sort());
  });

  it('orders by several keys, skips and takes', async () => {
    const answer = await t.query({
      from: 'Entities',
      where: 'Type.ToString() == "Monster"',
      orderBy: 'Rarity desc, Distance',
      skip: 3,
      take: 5,
      select: 'Id',
    });
    const sorted = entities()
      .filter((e) => e.Type.$enum === 'Monster')
      .sort((a, b) => b.Rarity.$value - a.Rarity.$value || a.Distance - b.Distance);
    expect(answer.items).toEqual(sorted.slice(3, 8).map((e) => e.Id));
  });
});

// Expression semantics on a snapshot: null handling, operators, built-in methods, what needs the
// live process, positioned errors, and the per-call limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { isToolError } from '../../../src/backend/index.ts';
import { evalInput } from '../../../plugins/exile/schemas.ts';
import { componentOf, entitiesOf, fixtureProvider, rawFixture, tools, type Raw } from './fixture.ts';

let raw: Raw;
let t: ReturnType<typeof tools>;
let player: Raw;

beforeAll(() => {
  raw = rawFixture();
  player = raw.roots.Player;
  t = tools(fixtureProvider());
});

async function failure(run: Promise<unknown>): Promise<{ code: unknown; message: string; data: any }> {
  try {
    await run;
  } catch (error) {
    if (!isToolError(error)) throw error;
    return { code: error.code, message: error.message, data: error.data };
  }
  throw new Error('expected a tool error');
}

describe('null handling', () => {
  it('?. short-circuits the rest of the chain; . on null is a positioned error', async () => {
    const noBuffs = entitiesOf(raw).findIndex((e) => !componentOf(e, 'Buffs'));
    expect(await t.eval(`Entities[${noBuffs}].GetComponent<Buffs>()?.BuffsList.Count`)).toBe(null);
    expect(await t.eval(`Entities[${noBuffs}].GetComponent<Buffs>()`)).toBe(null);
    const e = await failure(t.eval(`Entities[${noBuffs}].GetComponent<Buffs>().BuffsList`));
    expect(e.message).toMatch(/^null reference: cannot read BuffsList of null at \d+/);
    expect(e.data.position).toBe(`Entities[${noBuffs}].GetComponent<Buffs>()`.length);
  });

  it('np() and ?? give defaults, comparisons with null are false, arithmetic with null is null', async () => {
    const noBuffs = entitiesOf(raw).findIndex((e) => !componentOf(e, 'Buffs'));
    expect(await t.eval(`np(Entities[${noBuffs}].GetComponent<Buffs>().BuffsList.Count, -1)`)).toBe(-1);
    expect(await t.eval('np(Player.GetComponent<Buffs>().BuffsList.Count, -1)')).toBe(
      componentOf(player, 'Buffs')!.BuffsList.$values.length,
    );
    expect(await t.eval('null ?? "x"')).toBe('x');
    expect(await t.eval('null < 1')).toBe(false);
    expect(await t.eval('null + 1')).toBe(null);
    expect(await t.eval('"a" + null')).toBe('a');
  });
});

describe('operators', () => {
  it('follow C#: integer division truncates unless a side is floating point', async () => {
    const life = componentOf(player, 'Life')!;
    expect(await t.eval('7 / 2')).toBe(3);
    expect(await t.eval('-7 / 2')).toBe(-3);
    expect(await t.eval('7.0 / 2')).toBe(3.5);
    expect(await t.eval('7 % 3')).toBe(1);
    expect(await t.eval('Player.GetComponent<Life>().CurHP / Player.GetComponent<Life>().MaxHP')).toBe(Math.trunc(life.CurHP / life.MaxHP));
    expect(await t.eval('Player.GetComponent<Life>().CurHP * 1.0 / Player.GetComponent<Life>().MaxHP')).toBeCloseTo(
      life.CurHP / life.MaxHP,
      10,
    );
    expect(Number.isInteger(raw.roots.Camera.ZFar)).toBe(true);
    expect(await t.eval('Camera.ZFar / 3')).toBe(raw.roots.Camera.ZFar / 3);
    expect(await t.eval('Camera.Width / 3')).toBe(Math.trunc(raw.roots.Camera.Width / 3));
    expect(await t.eval('IngameUi.Map.Width / 3')).toBe(raw.roots.IngameUi.Map.Width / 3);
    const widths = await t.query({ from: 'IngameUi.Map.Children', where: 'true', select: '-Width / 2' });
    expect(widths.items).toEqual(raw.roots.IngameUi.Map.Children.$values.map((e: Raw) => -e.Width / 2));
    expect((await failure(t.eval('1 / 0'))).message).toMatch(/^division by zero at 2/);
    expect(await t.eval('1.0 / 0')).toBe('∞');
  });

  it('compare enums with names and numbers; strings with + and comparisons', async () => {
    const first = entitiesOf(raw)[0];
    expect(await t.eval(`Entities[0].Rarity == "${first.Rarity.$enum}"`)).toBe(true);
    expect(await t.eval(`Entities[0].Rarity == ${first.Rarity.$value}`)).toBe(true);
    expect(await t.eval('Entities[0].Rarity >= 0')).toBe(true);
    expect(await t.eval('Player.StateFlags == "Targetable"')).toBe(player.StateFlags.$enum === 'Targetable');
    expect(await t.eval('"a" + 1 + true')).toBe('a1True');
    expect(await t.eval('"abc" < "abd"')).toBe(true);
    expect(await t.eval('1 < 2 && !(2 < 1) || false')).toBe(true);
    expect(await t.eval('Player.IsHostile ? "hostile" : "friendly"')).toBe(player.IsHostile ? 'hostile' : 'friendly');
    expect(await t.eval('iif(Player.Distance == 0, 1, 2)')).toBe(player.Distance === 0 ? 1 : 2);
  });

  it('refuses what C# would not compile, at the operator', async () => {
    expect((await failure(t.eval('Player.Id == "x"'))).message).toMatch(/^operator '==' cannot compare Int32 with String at 10/);
    expect((await failure(t.eval('Player.Id && true'))).message).toMatch(/^operator '&&' needs a Boolean, got Int32 at 10/);
    expect((await failure(t.eval('Player - 1'))).message).toMatch(/^operator '-' cannot be applied to Entity and Int32 at 7/);
  });

  it('is / as test against $type and its recorded base types', async () => {
    expect(await t.eval('Player is Entity')).toBe(true);
    expect(await t.eval('Player is ExileCore.PoEMemory.RemoteMemoryObject')).toBe(true);
    expect(await t.eval('Player.GetComponent<Life>() is Component')).toBe(true);
    expect(await t.eval('Player is Life')).toBe(false);
    expect(await t.eval('(Player as Life) == null')).toBe(true);
    expect(await t.eval('Player.Id is Int32')).toBe(true);
    expect(await t.eval('Player.RenderName is String')).toBe(true);
    expect(await t.eval('Player.Components.Values.Where(it is Life).Count()')).toBe(1);
  });
});

describe('built-in methods', () => {
  it('ToString, GetHashCode, string and collection methods', async () => {
    expect(await t.eval('Player.Type.ToString()')).toBe(player.Type.$enum);
    expect(await t.eval('Player.IsAlive.ToString()')).toBe(player.IsAlive ? 'True' : 'False');
    expect(await t.eval('Player.ToString()')).toBe(player.$value);
    expect(await t.eval('Player.GetHashCode() == Player.GetHashCode()')).toBe(true);
    expect(await t.eval('Player.Id.GetHashCode()')).toBe(player.Id);
    expect(await t.eval('Player.Path.StartsWith("Metadata/") && Player.Path.EndsWith(Player.Path.Substring(9))')).toBe(true);
    expect(await t.eval('Player.RenderName.ToUpper()')).toBe(player.RenderName.toUpperCase());
    expect(await t.eval('Player.RenderName.Length')).toBe(player.RenderName.length);
    expect(await t.eval('Entities.Count')).toBe(entitiesOf(raw).length);
    expect(await t.eval('Entities.Count()')).toBe(entitiesOf(raw).length);
    expect(await t.eval('Entities.Count(IsHostile)')).toBe(entitiesOf(raw).filter((e) => e.IsHostile).length);
    expect(await t.eval('Entities.Any()')).toBe(true);
    expect(await t.eval('Entities.Any(x => x.Distance > 1000)')).toBe(entitiesOf(raw).some((e) => e.Distance > 1000));
    expect(await t.eval('Entities.First().Id')).toBe(entitiesOf(raw)[0].Id);
    expect(await t.eval('Entities.First(Type.ToString() == "Chest").Id')).toBe(entitiesOf(raw).find((e) => e.Type.$enum === 'Chest')!.Id);
    expect(await t.eval('Entities.FirstOrDefault(Distance > 1000)')).toBe(null);
    expect(await t.eval('Entities.Max(Distance)')).toBe(Math.max(...entitiesOf(raw).map((e) => e.Distance)));
    expect(await t.eval('Player.Components.ContainsKey("Life")')).toBe(true);
    expect(await t.eval('Player.Components.Keys.Contains("Buffs")')).toBe(true);
    expect(await t.eval('Player.HasComponent<Chest>()')).toBe(false);
    const e = await failure(t.eval('Entities.First(Distance > 1000)'));
    expect(e.message).toMatch(/^First: the sequence contains no matching elements at 8/);
  });
});

describe('what needs the live process', () => {
  it('answers "not available in a snapshot: <member>"', async () => {
    const cases: Array<[string, RegExp]> = [
      ['Player.DistanceFrom(Entities[0])', /^not available in a snapshot: Entity\.DistanceFrom\(\) at 6/],
      ['IngameState.GetZone(123)', /^not available in a snapshot: IngameState\.GetZone\(\) at 11/],
      ['Player.GetHudComponent<Life>()', /^not available in a snapshot: Entity\.GetHudComponent<Life>\(\)/],
      ['Memory.ReadInt(4096)', /^not available in a snapshot: Memory at 0/],
      ['Files', /^not available in a snapshot: Files at 0/],
      ['IngameUi.Map.GetClientRect()', /^not available in a snapshot: Element\.GetClientRect\(\)/],
    ];
    for (const [expr, message] of cases) {
      const e = await failure(t.eval(expr));
      expect(e.code, expr).toBe('NOT_IN_SNAPSHOT');
      expect(e.message, expr).toMatch(message);
    }
  });

  it('tells an unknown member from one that was not recorded', async () => {
    const unknown = await failure(t.eval('Player.Helth'));
    expect(unknown).toMatchObject({ code: 'EXPR_EVAL' });
    expect(unknown.message).toMatch(/^Entity has no member Helth at 6/);
    expect((await failure(t.eval('Player.isalive'))).message).toMatch(/did you mean IsAlive\?/);
    expect((await failure(t.eval('Player.IsValid()'))).message).toMatch(/IsValid is a property, not a method/);
    expect((await failure(t.eval('Player.GetComponent'))).message).toMatch(/GetComponent is a method/);
  });
});

describe('errors point at the expression', () => {
  it('syntax errors carry the position in message and data', async () => {
    const e = await failure(t.eval('Player.GetComponent<Life>().CurHP)'));
    expect(e.code).toBe('EXPR_SYNTAX');
    expect(e.message).toMatch(/^unexpected token '\)' at 33/);
    expect(e.data).toMatchObject({ position: 33, expression: 'Player.GetComponent<Life>().CurHP)' });
  });

  it('query names the clause', async () => {
    const e = await failure(t.query({ from: 'Entities', where: 'Distance < 50 + 1)' }));
    expect(e.message).toMatch(/^where: unexpected token '\)' at 17/);
    expect(e.data).toMatchObject({ clause: 'where', position: 17 });
    const order = await failure(t.query({ from: 'Entities', orderBy: 'Distance sideways' }));
    expect(order.message).toMatch(/^orderBy: unexpected token 'sideways' at 9/);
    const select = await failure(t.query({ from: 'Entities', where: 'IsHostile', select: 'new { Id, Nope }' }));
    expect(select.message).toMatch(/^select: Entity has no member Nope at 10/);
    const from = await failure(t.query({ from: 'Player' }));
    expect(from.message).toMatch(/^from: Player is Entity, not a collection/);
    const where = await failure(t.query({ from: 'Entities', where: 'Distance' }));
    expect(where.message).toMatch(/^where: the predicate needs a Boolean, got Double at 0/);
  });

  it('explore paths are expressions too', async () => {
    const e = await failure(t.explore({ target: 'Player.[0]' }));
    expect(e.message).toMatch(/^target: unexpected token '\[' at 7/);
    expect((await failure(t.explore({ target: 'type:Nope' }))).code).toBe('NOT_FOUND');
  });
});

describe('limits', () => {
  it('a call over its time budget fails instead of hanging', async () => {
    const slow = tools(fixtureProvider({ timeBudgetMs: 50 }));
    const e = await failure(
      slow.query({ from: 'Entities', where: 'GameController._entityCache.Values.Any(x => Entities.Any(y => y.Id == x.Id + Id))' }),
    );
    expect(e.code).toBe('TIME_BUDGET');
    expect(e.message).toMatch(/time budget of 50 ms exceeded/);
  });

  it('an answer larger than the cap is refused', async () => {
    const small = tools(fixtureProvider({ maxResultValues: 1000 }));
    const e = await failure(small.eval('Entities', 3));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(await small.eval('Entities.Count')).toBe(entitiesOf(raw).length);
  });

  it('depth is bounded by the tool schema', () => {
    expect(evalInput.safeParse({ expr: 'Player', depth: 11 }).success).toBe(false);
  });

  it('a cancelled call stops', async () => {
    const provider = fixtureProvider();
    const abort = new AbortController();
    abort.abort(new Error('client went away'));
    await expect(provider.eval({ expr: 'Player', depth: 1 }, { signal: abort.signal })).rejects.toThrow('client went away');
  });
});

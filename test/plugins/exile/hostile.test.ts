// Hostile input in snapshot mode (issue 14, items 1 and 5): globs and type names that would make a
// regex backtrack, strings and collections that grow without bound, answers too large to send. Each
// is answered with the right result or a clear error, never a hang or a 600 MB string.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isToolError } from '../../../src/backend/index.ts';
import { compileGlob, MAX_GLOB_LENGTH } from '../../../plugins/exile/snapshot/serve/glob.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { fixtureProvider, tools } from './fixture.ts';

async function failure(run: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await run;
  } catch (error) {
    if (!isToolError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected a tool error');
}

/** The regex the old search built: the reference for what a glob means (on short inputs only). */
const reference = (glob: string) =>
  new RegExp(`^${[...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'i');

const LONG = 'e'.repeat(5000);
const longNames = () =>
  parseSnapshot({
    format: 'mcphost-exile-snapshot',
    version: 1,
    roots: { Player: { $type: 'Game.Long', Name: 'x' } },
    types: {
      'Game.Long': {
        type: 'Game.Long',
        kind: 'class',
        members: [
          { name: LONG, kind: 'field', type: 'Int32', access: 'public' },
          { name: `${LONG}Q`, kind: 'field', type: 'Int32', access: 'public' },
          { name: `${LONG}!`, kind: 'field', type: 'Int32', access: 'private' },
        ],
      },
      [`Game.${LONG}`]: { type: `Game.${LONG}`, kind: 'class' },
    },
  });

describe('explore search: globs match in linear time', () => {
  let t: ReturnType<typeof tools>;
  beforeAll(() => {
    t = tools(createSnapshotProvider(longNames()));
  });

  it('answers the issue’s patterns against 5,000-character names, with the right matches', async () => {
    const q = await t.explore({ target: 'search:*e*e*e*e*e*e*e*e*e*e*e*e*Q' });
    expect(q.members.map((m: { name: string }) => m.name)).toEqual([`${LONG}Q`]);
    const bang = await t.explore({ target: 'search:*?*?*?*?*?*?*?*?*?*?*?*?!' });
    expect(bang.members.map((m: { name: string }) => m.name)).toEqual([`${LONG}!`]);
    const types = await t.explore({ target: 'search:*e*e*e*e*e*e*e*e*e*e*e*e' });
    expect(types.types.map((x: { type: string }) => x.type)).toEqual([`Game.${LONG}`]);
  });

  it('means what the regex meant: * any run, ? one character, case-insensitive', () => {
    const glob = fc.stringMatching(/^[abAB*?.]{0,8}$/);
    const name = fc.stringMatching(/^[abAB.]{0,10}$/);
    fc.assert(
      fc.property(glob, name, (g, n) => compileGlob(g)(n) === reference(g).test(n)),
      { numRuns: 3000 },
    );
  });

  it('refuses a pattern longer than the cap, naming the cap', async () => {
    const e = await failure(t.explore({ target: `search:${'*a'.repeat(MAX_GLOB_LENGTH)}` }));
    expect(e.code).toBe('INVALID_TARGET');
    expect(e.message).toMatch(new RegExp(`the limit is ${MAX_GLOB_LENGTH}`));
  });
});

describe('type names from the user are read in linear time', () => {
  it('a 9,000-character type name is simply not found', async () => {
    const t = tools(fixtureProvider());
    const name = 'a'.repeat(9000);
    expect((await failure(t.explore({ target: `type:${name}` }))).code).toBe('NOT_FOUND');
    expect(await t.eval(`Player.GetComponent<${name}>()`)).toBe(null);
  });
});

describe('expressions that would make the parser go quadratic', () => {
  it('a<a<a<… (10,000 characters) is a positioned syntax error, and real type arguments still parse', async () => {
    const t = tools(fixtureProvider());
    const e = await failure(t.eval(`${'a<'.repeat(4999)}a`));
    expect(e).toMatchObject({ code: 'EXPR_SYNTAX', message: expect.stringMatching(/ at \d+/) });
    expect(await t.eval('Player.GetComponent<ExileCore.PoEMemory.Components.Life>().CurHP > 0')).toBe(true);
  });
});

describe('what a call builds is capped', () => {
  const t = tools(fixtureProvider());
  const chain = (links: number) => `"aaaaaaaaaa"${'.Replace("a","aaaaaaaaaa")'.repeat(links)}`;

  it('the issue’s Replace chain (100 M characters) is refused as too large', async () => {
    expect(await t.eval(chain(2))).toBe('a'.repeat(1000));
    const e = await failure(t.eval(chain(7)));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/^too large: Replace would make a string of 10,000,000 characters; the limit is 1,048,576/);
  });

  it('so is a string doubled by +, and many strings built in one call', async () => {
    const doubled = `"${'x'.repeat(1000)}"${' + "x"'.repeat(3)}`;
    expect(await t.eval(doubled)).toHaveLength(1003);
    const half = `"${'y'.repeat(700)}".Replace("y", "${'y'.repeat(1000)}")`;
    expect((await failure(t.eval(`${half} + ${half}`))).message).toMatch(
      /^too large: operator '\+' would make a string of 1,400,000 characters/,
    );
    const many = await failure(t.eval(`Entities.Select(x => "${'z'.repeat(100)}".Replace("z", "${'z'.repeat(1000)}"))`));
    expect(many).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/built more than 16,777,216 characters/) });
  });

  it('an answer with too much text is refused, not sent', async () => {
    const e = await failure(t.eval(`Entities.Take(9).Select(x => "${'w'.repeat(1000)}".Replace("w", "${'w'.repeat(1000)}"))`));
    expect(e).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringMatching(/^answer too large: more than 8,388,608 characters/),
    });
  });

  it('Replace of an empty string is an error, as in C#', async () => {
    expect((await failure(t.eval('"abc".Replace("", "x")'))).message).toMatch(/Replace: the string to replace is empty/);
  });
});

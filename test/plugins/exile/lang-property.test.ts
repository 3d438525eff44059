// Property tests for the expression language: random valid trees survive print → parse unchanged,
// random junk only ever fails with a positioned syntax error, and random expressions evaluated
// against the fixture only ever fail with tool errors (never a TypeError or a hang).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEYWORDS, type Node, type BinaryOp } from '../../../plugins/exile/snapshot/serve/lang/ast.ts';
import { ExprError } from '../../../plugins/exile/snapshot/serve/lang/errors.ts';
import { parse } from '../../../plugins/exile/snapshot/serve/lang/parser.ts';
import { print } from '../../../plugins/exile/snapshot/serve/lang/print.ts';
import { stripPositions } from '../../../plugins/exile/snapshot/serve/lang/walk.ts';
import { isToolError } from '../../../src/backend/index.ts';
import { fixtureProvider, ctx } from './fixture.ts';

type Gen = Record<string, unknown>;
const BINARY: BinaryOp[] = ['??', '||', '&&', '==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%'];

function trees(names: fc.Arbitrary<string>, maxDepth: number) {
  const typeName = fc.array(names, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.'));
  return fc.letrec<{ node: Gen; arg: Gen }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth },
      fc.constant({ type: 'Null' }),
      fc.boolean().map((value) => ({ type: 'Bool', value })),
      fc.maxSafeNat().map((value) => ({ type: 'Number', value, real: false })),
      fc
        .double({ min: 0, max: 1e300, noNaN: true, noDefaultInfinity: true })
        .filter((v) => !Object.is(v, -0))
        .map((value) => ({ type: 'Number', value, real: true })),
      fc.string({ unit: 'binary', maxLength: 8 }).map((value) => ({ type: 'String', value })),
      names.map((name) => ({ type: 'Ident', name })),
      fc.constant({ type: 'It' }),
      fc.record({ type: fc.constant('Member'), object: tie('node'), name: names, optional: fc.boolean() }),
      fc.record({ type: fc.constant('Index'), object: tie('node'), index: tie('node'), optional: fc.boolean() }),
      fc
        .record({
          type: fc.constant('Call'),
          object: fc.option(tie('node'), { nil: null }),
          name: names,
          typeArgs: fc.array(typeName, { maxLength: 2 }),
          args: fc.array(tie('arg'), { maxLength: 3 }),
          optional: fc.boolean(),
        })
        .map((c) => (c.object === null ? { ...c, optional: false } : c)),
      fc.record({ type: fc.constant('Unary'), op: fc.constantFrom('!', '-', '+'), operand: tie('node') }),
      fc.record({ type: fc.constant('Binary'), op: fc.constantFrom(...BINARY), left: tie('node'), right: tie('node') }),
      fc.record({ type: fc.constant('Conditional'), test: tie('node'), then: tie('node'), else: tie('node') }),
      fc.record({ type: fc.constant('TypeTest'), op: fc.constantFrom('is', 'as'), operand: tie('node'), typeName }),
      fc.record({
        type: fc.constant('New'),
        fields: fc.uniqueArray(fc.record({ name: names, value: tie('node') }), { minLength: 1, maxLength: 3, selector: (f) => f.name }),
      }),
    ),
    arg: fc.oneof(
      { depthSize: 'small', maxDepth },
      tie('node'),
      fc.record({ type: fc.constant('Lambda'), param: names, body: tie('node') }),
    ),
  })).node as fc.Arbitrary<Node>;
}

const anyName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/).filter((s) => !KEYWORDS.has(s));
const fixtureName = fc.constantFrom(
  'Player',
  'Entities',
  'GameController',
  'IngameUi',
  'Memory',
  'Components',
  'Life',
  'Buffs',
  'BuffsList',
  'CurHP',
  'MaxHP',
  'HPPercentage',
  'Distance',
  'IsHostile',
  'Rarity',
  'Type',
  'Path',
  'RenderName',
  'Position',
  'X',
  'Y',
  'Count',
  'Keys',
  'Values',
  'Length',
  'Timer',
  'GetComponent',
  'HasComponent',
  'ToString',
  'GetHashCode',
  'Contains',
  'Any',
  'First',
  'Where',
  'Select',
  'OrderBy',
  'Sum',
  'iif',
  'np',
  'Owner',
  'Id',
);

function expectPositioned(src: string, error: unknown) {
  expect(error).toBeInstanceOf(ExprError);
  const e = error as ExprError;
  expect(e.code).toBe('EXPR_SYNTAX');
  expect(Number.isInteger(e.position) && e.position >= 0 && e.position <= src.length).toBe(true);
  expect(e.message).toMatch(new RegExp(` at ${e.position}( |$)`));
}

describe('exile expression language (properties)', () => {
  it('print → parse gives back the same tree', () => {
    fc.assert(
      fc.property(trees(anyName, 5), (tree) => {
        const text = print(tree);
        expect(stripPositions(parse(text))).toEqual(stripPositions(tree));
      }),
      { numRuns: 1500 },
    );
  });

  it('printing is stable: print(parse(print(t))) === print(t)', () => {
    fc.assert(
      fc.property(trees(anyName, 4), (tree) => print(parse(print(tree))) === print(tree)),
      { numRuns: 500 },
    );
  });

  it('random junk either parses or fails with a positioned syntax error', () => {
    const pieces = fc.constantFrom(
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '.',
      '?.',
      '?',
      ':',
      '??',
      ',',
      '<',
      '>',
      '=',
      '==',
      '=>',
      '!',
      '-',
      '+',
      '*',
      '/',
      '%',
      '&&',
      '||',
      '"',
      "'",
      '\\',
      '@',
      '#',
      '$',
      ' ',
      'a',
      'Player',
      'new',
      'it',
      'is',
      'as',
      'iif',
      '1',
      '1.5',
      '0x',
      '1e',
      'null',
      'true',
      '\u0000',
      '\u00e9',
      '\ud83d',
    );
    const junk = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(pieces, { maxLength: 25 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(junk, (src) => {
        try {
          parse(src);
        } catch (error) {
          expectPositioned(src, error);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a valid expression with characters cut or inserted fails only with a positioned error', () => {
    const mutated = fc
      .tuple(trees(anyName, 4).map(print), fc.nat(), fc.nat(4), fc.string({ maxLength: 3 }))
      .map(([text, at, cut, insert]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, i) + insert + text.slice(i + cut);
      });
    fc.assert(
      fc.property(mutated, (src) => {
        try {
          parse(src);
        } catch (error) {
          expectPositioned(src, error);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('evaluating random expressions against the fixture only fails with tool errors', async () => {
    const provider = fixtureProvider({ timeBudgetMs: 500 });
    await fc.assert(
      fc.asyncProperty(trees(fixtureName, 5), async (tree) => {
        try {
          await provider.eval({ expr: print(tree), depth: 1 }, ctx());
        } catch (error) {
          if (!isToolError(error)) throw error;
        }
      }),
      { numRuns: 1500 },
    );
  });
});

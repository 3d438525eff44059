import { describe, expect, it } from 'vitest';
import { parse, parseOrderBy, MAX_NESTING, MAX_EXPRESSION_LENGTH } from '../../../plugins/exile/snapshot/serve/lang/parser.ts';
import { print } from '../../../plugins/exile/snapshot/serve/lang/print.ts';
import { stripPositions } from '../../../plugins/exile/snapshot/serve/lang/walk.ts';
import { ExprError } from '../../../plugins/exile/snapshot/serve/lang/errors.ts';

const shape = (src: string) => stripPositions(parse(src));
/** The tree written with explicit parentheses, to check precedence. */
const grouped = (src: string) => {
  const render = (n: any): string => {
    switch (n.type) {
      case 'Binary':
        return `(${render(n.left)} ${n.op} ${render(n.right)})`;
      case 'Unary':
        return `(${n.op}${render(n.operand)})`;
      case 'Conditional':
        return `(${render(n.test)} ? ${render(n.then)} : ${render(n.else)})`;
      case 'TypeTest':
        return `(${render(n.operand)} ${n.op} ${n.typeName})`;
      default:
        return print(n);
    }
  };
  return render(parse(src));
};

function errorOf(src: string): ExprError {
  try {
    parse(src);
  } catch (error) {
    expect(error).toBeInstanceOf(ExprError);
    return error as ExprError;
  }
  throw new Error(`expected ${src} to fail`);
}

describe('exile expression parser', () => {
  it('reads the HUD eval syntax: paths, indexers, calls, generics, null-safe steps', () => {
    expect(shape('Player.Position.X')).toEqual({
      type: 'Member',
      name: 'X',
      optional: false,
      object: { type: 'Member', name: 'Position', optional: false, object: { type: 'Ident', name: 'Player' } },
    });
    expect(shape('Player.Components["Life"]')).toMatchObject({ type: 'Index', index: { type: 'String', value: 'Life' } });
    expect(shape('Entities[0]')).toMatchObject({ type: 'Index', index: { type: 'Number', value: 0, real: false } });
    expect(shape('IngameState.GetZone(123)')).toMatchObject({
      type: 'Call',
      name: 'GetZone',
      args: [{ type: 'Number', value: 123 }],
      typeArgs: [],
    });
    expect(shape('Player.GetComponent<Life>().CurHP')).toMatchObject({
      type: 'Member',
      name: 'CurHP',
      object: { type: 'Call', name: 'GetComponent', typeArgs: ['Life'], args: [] },
    });
    expect(shape('Player?.GetComponent<ExileCore.Life>()?.CurHP')).toMatchObject({
      type: 'Member',
      optional: true,
      object: { type: 'Call', optional: true, typeArgs: ['ExileCore.Life'], object: { type: 'Ident', name: 'Player' } },
    });
    expect(shape('x?[1]')).toMatchObject({ type: 'Index', optional: true });
  });

  it('tells a generic call from comparisons', () => {
    expect(grouped('a < b > c')).toBe('((a < b) > c)');
    expect(shape('a<b>(c)')).toMatchObject({ type: 'Call', name: 'a', typeArgs: ['b'] });
    expect(grouped('A < B && C > D')).toBe('((A < B) && (C > D))');
    expect(shape('x.M<List<Buff>>()')).toMatchObject({ type: 'Call', typeArgs: ['List<Buff>'] });
  });

  it('follows C# / Dynamic LINQ precedence and associativity', () => {
    expect(grouped('a || b && c')).toBe('(a || (b && c))');
    expect(grouped('a == b < c')).toBe('(a == (b < c))');
    expect(grouped('1 + 2 * 3 - 4 % 5')).toBe('((1 + (2 * 3)) - (4 % 5))');
    expect(grouped('a - b - c')).toBe('((a - b) - c)');
    expect(grouped('!a && -b < c')).toBe('((!a) && ((-b) < c))');
    expect(grouped('a ?? b ?? c')).toBe('(a ?? (b ?? c))');
    expect(grouped('a ?? b ? c : d')).toBe('((a ?? b) ? c : d)');
    expect(grouped('a ? b : c ? d : e')).toBe('(a ? b : (c ? d : e))');
    expect(grouped('x is Life == true')).toBe('((x is Life) == true)');
  });

  it('accepts the Dynamic LINQ word operators and aliases', () => {
    expect(shape('a and not b or c')).toEqual(shape('a && !b || c'));
    expect(shape('a = 1')).toEqual(shape('a == 1'));
    expect(shape('a <> 1')).toEqual(shape('a != 1'));
    expect(shape('a mod 2')).toEqual(shape('a % 2'));
  });

  it('reads literals: ints, reals with suffixes, hex, strings with escapes, char literals', () => {
    expect(shape('0x1F')).toEqual({ type: 'Number', value: 31, real: false });
    expect(shape('1.5f')).toEqual({ type: 'Number', value: 1.5, real: true });
    expect(shape('2e3')).toEqual({ type: 'Number', value: 2000, real: true });
    expect(shape('10L')).toEqual({ type: 'Number', value: 10, real: false });
    expect(shape('"a\\"b\\n\\u0041"')).toEqual({ type: 'String', value: 'a"b\nA' });
    expect(shape("'x'")).toEqual({ type: 'String', value: 'x' });
    expect(shape('5.ToString()')).toMatchObject({ type: 'Call', name: 'ToString', object: { type: 'Number', value: 5 } });
    expect(shape('a ?.5 : 1')).toMatchObject({ type: 'Conditional', then: { type: 'Number', value: 0.5 } });
  });

  it('reads new { }, new ( as ), lambdas, iif, np, is / as', () => {
    expect(shape('new { Id, Name = x.RenderName, Position.X }')).toMatchObject({
      type: 'New',
      fields: [{ name: 'Id' }, { name: 'Name', value: { type: 'Member', name: 'RenderName' } }, { name: 'X' }],
    });
    expect(shape('new (Id, RenderName as Name)')).toEqual(shape('new { Id, Name = RenderName }'));
    expect(shape('BuffsList.Any(b => b.Timer > 0)')).toMatchObject({ type: 'Call', args: [{ type: 'Lambda', param: 'b' }] });
    expect(shape('iif(a, 1, 2)')).toMatchObject({ type: 'Call', object: null, name: 'iif' });
    expect(shape('it as "ExileCore.Life"')).toMatchObject({
      type: 'TypeTest',
      op: 'as',
      typeName: 'ExileCore.Life',
      operand: { type: 'It' },
    });
  });

  it('reads orderBy lists with directions', () => {
    const order = parseOrderBy('Timer desc, Id, Name ascending').map((o) => ({ expr: print(o.expr), descending: o.descending }));
    expect(order).toEqual([
      { expr: 'Timer', descending: true },
      { expr: 'Id', descending: false },
      { expr: 'Name', descending: false },
    ]);
  });

  it('points errors at the offending position', () => {
    expect(errorOf('Player.GetComponent<Life>().CurHP)').message).toMatch(/^unexpected token '\)' at 33/);
    expect(errorOf('Player.GetComponent<Life>().CurHP)').position).toBe(33);
    expect(errorOf('(Player.Position').message).toMatch(/^unexpected end of expression at 16/);
    expect(errorOf('Entities[0').position).toBe(10);
    expect(errorOf('a + * b').message).toMatch(/^unexpected token '\*' at 4/);
    expect(errorOf('"open').message).toMatch(/^unterminated string at 0/);
    expect(errorOf('Player # 2').message).toMatch(/^unexpected character '#' at 7/);
    expect(errorOf('Foo(1,)').position).toBe(6);
    expect(errorOf('').message).toMatch(/^unexpected end of expression at 0/);
    expect(errorOf('12abc').message).toMatch(/^malformed number/);
    expect(errorOf('new { 1 + 2 }').message).toMatch(/cannot infer a field name at 6/);
    expect(errorOf('new { A, A }').message).toMatch(/duplicate field A at 9/);
    expect(errorOf('Timer desc').position).toBe(6);
    expect(() => parseOrderBy('Timer constructor')).toThrow(/unexpected token 'constructor' at 6/);
    expect(errorOf('x.').message).toMatch(/unexpected end of expression at 2 \(expected a member name\)/);
  });

  it('refuses expressions too deep or too long with a positioned error instead of overflowing', () => {
    const deep = `${'('.repeat(MAX_NESTING + 5)}1${')'.repeat(MAX_NESTING + 5)}`;
    expect(errorOf(deep).message).toMatch(/nested too deeply/);
    const chain = `a${'.b'.repeat(MAX_NESTING + 5)}`;
    expect(errorOf(chain).message).toMatch(/nested too deeply/);
    const sum = Array.from({ length: MAX_NESTING + 5 }, () => '1').join(' + ');
    expect(errorOf(sum).code).toBe('EXPR_SYNTAX');
    expect(errorOf('!'.repeat(5_000) + 'a').message).toMatch(/nested too deeply/);
    expect(errorOf('a'.repeat(MAX_EXPRESSION_LENGTH + 1)).message).toMatch(/longer than/);
  });
});

// Recursive-descent parser for the HUD's expression language: C#-style member paths, indexers,
// calls (generic ones too), `?.`, and the Dynamic LINQ operators. Precedence, loosest first:
// `?:`, `??`, `||`, `&&`, `== !=`, `< > <= >= is as`, `+ -`, `* / %`, unary `! - +`, postfix.
import { KEYWORDS, type BinaryOp, type NewField, type Node, type Ordering } from './ast.js';
import { syntaxError } from './errors.js';
import { scanTypeArgs } from './generics.js';
import { tokenize, type Token } from './lexer.js';
import { treeDepth } from './walk.js';

export const MAX_EXPRESSION_LENGTH = 10_000;
export const MAX_NESTING = 128;

/** Operators of each left-associative level, loosest first, with Dynamic LINQ's aliases and words. */
const LEVELS = [
  { '||': '||', or: '||' },
  { '&&': '&&', and: '&&' },
  { '==': '==', '=': '==', '!=': '!=', '<>': '!=' },
  { '<': '<', '>': '>', '<=': '<=', '>=': '>=', is: 'is', as: 'as' },
  { '+': '+', '-': '-' },
  { '*': '*', '/': '/', '%': '%', mod: '%' },
].map((ops) => new Map(Object.entries(ops)));
const DIRECTIONS = new Map([
  ['asc', false],
  ['ascending', false],
  ['desc', true],
  ['descending', true],
]);

/** Parses one expression; throws a positioned `ExprError` (code EXPR_SYNTAX) on bad input. */
export function parse(src: string): Node {
  const p = new Parser(src);
  const node = p.expression();
  p.expectEnd();
  return checkDepth(node);
}

/** Parses an orderBy clause: `Distance`, `Timer desc, Id`, `it.Name ascending`. */
export function parseOrderBy(src: string): Ordering[] {
  const p = new Parser(src);
  const out: Ordering[] = [];
  do {
    const expr = checkDepth(p.expression());
    out.push({ expr, descending: p.direction() });
  } while (p.eat(','));
  p.expectEnd();
  return out;
}

function checkDepth(node: Node): Node {
  const deep = treeDepth(node, MAX_NESTING);
  if (deep) throw syntaxError(`expression nested too deeply (more than ${MAX_NESTING} levels)`, deep.pos);
  return node;
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private depth = 0;

  constructor(src: string) {
    if (src.length > MAX_EXPRESSION_LENGTH)
      throw syntaxError(`expression longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH);
    this.tokens = tokenize(src);
  }

  private get tok(): Token {
    return this.tokens[this.i];
  }

  private isPunct(value: string, t = this.tok): boolean {
    return t.kind === 'punct' && t.value === value;
  }

  private isWord(value: string, t = this.tok): boolean {
    return t.kind === 'ident' && t.value === value;
  }

  eat(value: string): boolean {
    if (!this.isPunct(value)) return false;
    this.i++;
    return true;
  }

  private expect(value: string): Token {
    if (!this.isPunct(value)) throw this.unexpected(`expected '${value}'`);
    return this.tokens[this.i++];
  }

  private ident(what: string): Token & { value: string } {
    if (this.tok.kind !== 'ident') throw this.unexpected(`expected ${what}`);
    return this.tokens[this.i++] as Token & { value: string };
  }

  expectEnd(): void {
    if (this.tok.kind !== 'eof') throw this.unexpected('expected an operator or the end');
  }

  direction(): boolean {
    const t = this.tok;
    const descending = t.kind === 'ident' ? DIRECTIONS.get((t.value as string).toLowerCase()) : undefined;
    if (descending !== undefined) {
      this.i++;
      return descending;
    }
    return false;
  }

  unexpected(hint?: string) {
    const t = this.tok;
    if (t.kind === 'eof') return syntaxError('unexpected end of expression', t.pos, hint);
    const shown =
      t.kind === 'string'
        ? `string ${JSON.stringify(t.value)}`
        : t.kind === 'int' || t.kind === 'real'
          ? `number ${t.value}`
          : `'${t.value}'`;
    return syntaxError(`unexpected token ${shown}`, t.pos, hint);
  }

  expression(): Node {
    return this.nested(() => this.conditional());
  }

  /** Guards the parser's own recursion (`((((…` or `!!!!…`) before the tree-depth check. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING) throw syntaxError(`expression nested too deeply (more than ${MAX_NESTING} levels)`, this.tok.pos);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private conditional(): Node {
    const test = this.coalesce();
    if (!this.isPunct('?')) return test;
    const pos = this.tokens[this.i++].pos;
    const then = this.expression();
    this.expect(':');
    const otherwise = this.expression();
    return { type: 'Conditional', test, then, else: otherwise, pos };
  }

  private coalesce(): Node {
    const left = this.binary(0);
    if (!this.isPunct('??')) return left;
    const pos = this.tokens[this.i++].pos;
    return { type: 'Binary', op: '??', left, right: this.nested(() => this.coalesce()), pos };
  }

  /** Left-associative levels 0..5: || && equality relational additive multiplicative. */
  private binary(level: number): Node {
    if (level === 6) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.tok;
      const op = this.binaryOp(level, t);
      if (!op) return left;
      this.i++;
      if (op === 'is' || op === 'as') {
        left = { type: 'TypeTest', op, operand: left, typeName: this.typeName(), pos: t.pos };
        continue;
      }
      left = { type: 'Binary', op: op as BinaryOp, left, right: this.binary(level + 1), pos: t.pos };
    }
  }

  private binaryOp(level: number, t: Token): string | undefined {
    return t.kind === 'punct' || t.kind === 'ident' ? LEVELS[level].get(t.value as string) : undefined;
  }

  private typeName(): string {
    if (this.tok.kind === 'string') return String(this.tokens[this.i++].value);
    let name = this.ident('a type name').value;
    while (this.isPunct('.') && this.tokens[this.i + 1].kind === 'ident') {
      this.i++;
      name += `.${this.tokens[this.i++].value}`;
    }
    return name;
  }

  private unary(): Node {
    const t = this.tok;
    const op = t.kind === 'punct' ? t.value : t.kind === 'ident' && t.value === 'not' ? '!' : undefined;
    if (op === '!' || op === '-' || op === '+') {
      this.i++;
      return { type: 'Unary', op, operand: this.nested(() => this.unary()), pos: t.pos };
    }
    return this.postfix(this.primary());
  }

  private postfix(node: Node): Node {
    for (;;) {
      const t = this.tok;
      if (this.isPunct('.') || this.isPunct('?.')) {
        this.i++;
        const name = this.ident('a member name');
        node = this.memberOrCall(node, name.value, t.value === '?.', t.pos);
      } else if (this.isPunct('[') || this.isPunct('?[')) {
        this.i++;
        const index = this.expression();
        this.expect(']');
        node = { type: 'Index', object: node, index, optional: t.value === '?[', pos: t.pos };
      } else {
        return node;
      }
    }
  }

  private memberOrCall(object: Node | null, name: string, optional: boolean, pos: number): Node {
    const typeArgs = this.typeArgs();
    if (typeArgs || this.isPunct('(')) {
      return { type: 'Call', object, name, typeArgs: typeArgs ?? [], args: this.args(), optional, pos };
    }
    if (object === null) return { type: 'Ident', name, pos };
    return { type: 'Member', object, name, optional, pos };
  }

  /** `<A, B.C>` directly followed by `(`; anything else leaves `<` to be a comparison. */
  private typeArgs(): string[] | undefined {
    const found = scanTypeArgs(this.tokens, this.i);
    if (!found) return undefined;
    this.i = found.next;
    return found.args;
  }

  private args(): Node[] {
    this.expect('(');
    const args: Node[] = [];
    if (this.eat(')')) return args;
    do args.push(this.argument());
    while (this.eat(','));
    this.expect(')');
    return args;
  }

  private argument(): Node {
    const t = this.tok;
    if (t.kind === 'ident' && !KEYWORDS.has(t.value as string) && this.isPunct('=>', this.tokens[this.i + 1])) {
      this.i += 2;
      return { type: 'Lambda', param: t.value as string, body: this.expression(), pos: t.pos };
    }
    return this.expression();
  }

  private primary(): Node {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
      case 'real':
        this.i++;
        return { type: 'Number', value: t.value as number, real: t.kind === 'real', pos: t.pos };
      case 'string':
        this.i++;
        return { type: 'String', value: t.value as string, pos: t.pos };
      case 'ident':
        return this.word(t as Token & { value: string });
      case 'punct':
        if (t.value === '(') {
          this.i++;
          const inner = this.expression();
          this.expect(')');
          return inner;
        }
        throw this.unexpected('expected an expression');
      default:
        throw this.unexpected('expected an expression');
    }
  }

  private word(t: Token & { value: string }): Node {
    this.i++;
    switch (t.value) {
      case 'true':
      case 'false':
        return { type: 'Bool', value: t.value === 'true', pos: t.pos };
      case 'null':
        return { type: 'Null', pos: t.pos };
      case 'it':
        return { type: 'It', pos: t.pos };
      case 'new':
        return this.newObject(t.pos);
      default:
        if (KEYWORDS.has(t.value)) {
          this.i--;
          throw this.unexpected('expected an expression');
        }
        return this.memberOrCall(null, t.value, false, t.pos);
    }
  }

  /** `new { A, Name = x.B }` (C#) or `new (A, x.B as Name)` (Dynamic LINQ). */
  private newObject(pos: number): Node {
    const close = this.isPunct('{') ? '}' : this.isPunct('(') ? ')' : undefined;
    if (!close) throw this.unexpected("expected '{' or '(' after new");
    this.i++;
    const fields: NewField[] = [];
    do {
      const start = this.tok;
      let field: NewField;
      if (start.kind === 'ident' && !KEYWORDS.has(start.value as string) && this.isPunct('=', this.tokens[this.i + 1])) {
        this.i += 2;
        field = { name: start.value as string, value: this.expression() };
      } else {
        const value = this.expression();
        if (close === ')' && value.type === 'TypeTest' && value.op === 'as' && !value.typeName.includes('.')) {
          field = { name: value.typeName, value: value.operand };
        } else {
          const name = value.type === 'Ident' ? value.name : value.type === 'Member' ? value.name : undefined;
          if (!name) throw syntaxError('cannot infer a field name', start.pos, 'write Name = expression');
          field = { name, value };
        }
      }
      if (fields.some((f) => f.name === field.name)) throw syntaxError(`duplicate field ${field.name}`, start.pos);
      fields.push(field);
    } while (this.eat(','));
    this.expect(close);
    return { type: 'New', fields, pos };
  }
}

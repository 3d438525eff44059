// The expression tree shared by eval, explore paths and the Dynamic LINQ clauses of query.
// `pos` is the 0-based offset of the node's first character (for a postfix node: its operator).

export type BinaryOp = '??' | '||' | '&&' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';
type UnaryOp = '!' | '-' | '+';

export type Node =
  | { type: 'Null'; pos: number }
  | { type: 'Bool'; value: boolean; pos: number }
  | { type: 'Number'; value: number; real: boolean; pos: number }
  | { type: 'String'; value: string; pos: number }
  | { type: 'Ident'; name: string; pos: number }
  | { type: 'It'; pos: number }
  | { type: 'Member'; object: Node; name: string; optional: boolean; pos: number }
  | { type: 'Index'; object: Node; index: Node; optional: boolean; pos: number }
  /** `object` is null for a bare call: `iif(...)`, `np(...)`, or a method of `it`. */
  | { type: 'Call'; object: Node | null; name: string; typeArgs: string[]; args: Node[]; optional: boolean; pos: number }
  | { type: 'Unary'; op: UnaryOp; operand: Node; pos: number }
  | { type: 'Binary'; op: BinaryOp; left: Node; right: Node; pos: number }
  | { type: 'Conditional'; test: Node; then: Node; else: Node; pos: number }
  | { type: 'TypeTest'; op: 'is' | 'as'; operand: Node; typeName: string; pos: number }
  | { type: 'New'; fields: NewField[]; pos: number }
  | { type: 'Lambda'; param: string; body: Node; pos: number };

export interface NewField {
  name: string;
  value: Node;
}

export interface Ordering {
  expr: Node;
  descending: boolean;
}

export type NodeOf<T extends Node['type']> = Extract<Node, { type: T }>;

/** Words that cannot be identifiers (they may still follow a `.` as member names). */
export const KEYWORDS = new Set(['it', 'true', 'false', 'null', 'new', 'is', 'as', 'and', 'or', 'not', 'mod']);

/** Binding strength, loosest first; a postfix chain or literal is `PRIMARY`. */
export const PREC = {
  lambda: 0,
  conditional: 1,
  coalesce: 2,
  or: 3,
  and: 4,
  equality: 5,
  relational: 6,
  additive: 7,
  multiplicative: 8,
  unary: 9,
  primary: 10,
} as const;

export function binaryPrec(op: BinaryOp): number {
  switch (op) {
    case '??':
      return PREC.coalesce;
    case '||':
      return PREC.or;
    case '&&':
      return PREC.and;
    case '==':
    case '!=':
      return PREC.equality;
    case '<':
    case '>':
    case '<=':
    case '>=':
      return PREC.relational;
    case '+':
    case '-':
      return PREC.additive;
    default:
      return PREC.multiplicative;
  }
}

export function precOf(node: Node): number {
  switch (node.type) {
    case 'Lambda':
      return PREC.lambda;
    case 'Conditional':
      return PREC.conditional;
    case 'Binary':
      return binaryPrec(node.op);
    case 'TypeTest':
      return PREC.relational;
    case 'Unary':
      return PREC.unary;
    default:
      return PREC.primary;
  }
}

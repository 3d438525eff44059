// Prints a tree back as source with as few parentheses as precedence allows, so that
// parse(print(tree)) gives the same tree (the property tests hold the parser to that).
import { PREC, binaryPrec, precOf, type Node } from './ast.js';

export function print(node: Node): string {
  switch (node.type) {
    case 'Null':
      return 'null';
    case 'Bool':
      return String(node.value);
    case 'Number':
      return node.real ? printReal(node.value) : String(node.value);
    case 'String':
      return JSON.stringify(node.value);
    case 'Ident':
      return node.name;
    case 'It':
      return 'it';
    case 'Member':
      return `${child(node.object, PREC.primary)}${node.optional ? '?.' : '.'}${node.name}`;
    case 'Index':
      return `${child(node.object, PREC.primary)}${node.optional ? '?[' : '['}${child(node.index, PREC.conditional)}]`;
    case 'Call': {
      const target = node.object ? `${child(node.object, PREC.primary)}${node.optional ? '?.' : '.'}` : '';
      const generic = node.typeArgs.length > 0 ? `<${node.typeArgs.join(', ')}>` : '';
      return `${target}${node.name}${generic}(${node.args.map((a) => child(a, PREC.lambda)).join(', ')})`;
    }
    case 'Unary':
      return `${node.op}${child(node.operand, PREC.unary)}`;
    case 'Binary': {
      const p = binaryPrec(node.op);
      const rightAssoc = node.op === '??';
      return `${child(node.left, rightAssoc ? p + 1 : p)} ${node.op} ${child(node.right, rightAssoc ? p : p + 1)}`;
    }
    case 'Conditional':
      return `${child(node.test, PREC.coalesce)} ? ${child(node.then, PREC.conditional)} : ${child(node.else, PREC.conditional)}`;
    case 'TypeTest':
      return `${child(node.operand, PREC.relational)} ${node.op} ${printTypeName(node.typeName)}`;
    case 'New':
      return `new { ${node.fields.map((f) => `${f.name} = ${child(f.value, PREC.conditional)}`).join(', ')} }`;
    case 'Lambda':
      return `${node.param} => ${child(node.body, PREC.conditional)}`;
  }
}

/**
 * A sub-expression, parenthesised when it binds looser than its place needs. A `<` comparison is
 * always parenthesised below the root: `a < b > (c)` would otherwise read as the generic call a<b>(c).
 */
function child(node: Node, min: number): string {
  const text = print(node);
  return precOf(node) < min || (node.type === 'Binary' && node.op === '<') ? `(${text})` : text;
}

function printReal(value: number): string {
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

function printTypeName(name: string): string {
  return /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(name) ? name : JSON.stringify(name);
}

// Generic traversal helpers over the expression tree.
import type { Node } from './ast.js';

function children(node: Node): Node[] {
  switch (node.type) {
    case 'Member':
      return [node.object];
    case 'Index':
      return [node.object, node.index];
    case 'Call':
      return node.object ? [node.object, ...node.args] : node.args;
    case 'Unary':
      return [node.operand];
    case 'Binary':
      return [node.left, node.right];
    case 'Conditional':
      return [node.test, node.then, node.else];
    case 'TypeTest':
      return [node.operand];
    case 'New':
      return node.fields.map((f) => f.value);
    case 'Lambda':
      return [node.body];
    default:
      return [];
  }
}

/** The first node found deeper than `max` levels (iteratively, so a deep tree cannot overflow the stack). */
export function treeDepth(root: Node, max: number): Node | undefined {
  const stack: Array<[Node, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return node;
    for (const child of children(node)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/** The tree without positions, for comparing two parses. */
export function stripPositions(node: Node): unknown {
  return JSON.parse(JSON.stringify(node, (key, value) => (key === 'pos' ? undefined : value)));
}

// Bounds on what a config file may hold once parsed. `.mcprc` is found from the working directory
// up, so a cloned repository can carry a hostile one: YAML aliases that multiply out (a 540-byte
// file expanding to 9^9 nodes), nesting deep enough to overflow every recursive walk, or (from a
// `.mcprc.js`) an object that contains itself. Every walk after this check (interpolation, zod,
// sources) is then bounded too. The figures are far above any real config (a few hundred nodes,
// six levels deep).
import { ConfigError } from './errors.js';

export const CONFIG_LIMITS = {
  /** Objects and arrays inside one another. */
  maxDepth: 64,
  /** Values after YAML aliases are expanded (an alias counts its whole subtree again). */
  maxNodes: 100_000,
  /** Characters of all strings and keys, aliases expanded. */
  maxChars: 16 * 1024 * 1024,
  /** YAML aliases, weighted by the size of what they repeat (the `yaml` library's own count). */
  maxAliasCount: 100,
} as const;

/**
 * Throws a ConfigError naming the file and the key path when `value` is too deep, too large once
 * expanded, or contains itself. Iterative and stops at the first bound, so it is cheap whatever the input.
 */
export function checkConfigShape(value: unknown, file: string | undefined, limits = CONFIG_LIMITS): void {
  let nodes = 0;
  let chars = 0;
  // Depth-first with an explicit stack; `exit` entries pop a container off the current path.
  const stack: Array<{ value: unknown; key: string; depth: number } | { exit: object }> = [{ value, key: '', depth: 0 }];
  const onPath = new Set<object>();
  const keys: string[] = [];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('exit' in item) {
      onPath.delete(item.exit);
      keys.pop();
      continue;
    }
    const here = () => keyPath([...keys, item.key]);
    if (++nodes > limits.maxNodes) {
      throw shapeError(file, here(), `holds more than ${limits.maxNodes.toLocaleString('en')} values (YAML aliases expanded)`);
    }
    if (typeof item.value === 'string') chars += item.value.length;
    if (chars > limits.maxChars) throw shapeError(file, here(), `holds more than ${limits.maxChars / 1024 / 1024} MiB of text`);
    if (item.value === null || typeof item.value !== 'object') continue;
    const container = item.value;
    if (onPath.has(container)) throw shapeError(file, here(), 'contains itself');
    if (item.depth >= limits.maxDepth) throw shapeError(file, here(), `is nested more than ${limits.maxDepth} levels deep`);
    const size = Array.isArray(container) ? container.length : Object.keys(container).length;
    if (nodes + size > limits.maxNodes) {
      throw shapeError(file, here(), `holds more than ${limits.maxNodes.toLocaleString('en')} values (YAML aliases expanded)`);
    }
    onPath.add(container);
    keys.push(item.key);
    stack.push({ exit: container });
    const entries = Array.isArray(container) ? container.map((v, i) => [`[${i}]`, v] as const) : Object.entries(container);
    for (const [key, child] of entries.reverse()) {
      chars += key.length;
      stack.push({ value: child, key, depth: item.depth + 1 });
    }
  }
}

function keyPath(parts: string[]): string {
  const text = parts
    .filter(Boolean)
    .map((p, i) => (p.startsWith('[') || i === 0 ? p : `.${p}`))
    .join('');
  return text || '(top level)';
}

function shapeError(file: string | undefined, keyPath: string, problem: string): ConfigError {
  const shown = keyPath.length > 120 ? `${keyPath.slice(0, 117)}…` : keyPath;
  return new ConfigError(
    `Invalid config${file ? ` in ${file}` : ''}: ${shown} ${problem}; mcphost refuses such a file (remove it, or pass --config with another one)`,
    [],
    file,
  );
}

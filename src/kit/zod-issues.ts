// Turns zod issues into lines a person can act on: the key path, what was expected, what was found.
import type * as z from 'zod';
import { objectShape, schemaAt } from './zod-introspect.js';

export interface IssueLine {
  path: string;
  message: string;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array (${truncate(JSON.stringify(value))})`;
  if (typeof value === 'string') return `a string (${truncate(JSON.stringify(value))})`;
  if (typeof value === 'object') return `an object (${truncate(JSON.stringify(value))})`;
  return `${typeof value} (${String(value)})`;
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function joinPath(prefix: readonly PropertyKey[], path: readonly PropertyKey[]): string {
  return [...prefix, ...path]
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key as string];
  }
  return cur;
}

/** One line per issue; `root` is the value that was parsed, used to show what was found. */
export function issueLines(error: z.ZodError, root: unknown, prefix: readonly PropertyKey[] = [], schema?: unknown): IssueLine[] {
  const lines: IssueLine[] = [];
  for (const issue of flattenUnions(error.issues)) {
    const found = valueAt(root, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = schema === undefined ? undefined : objectShape(schemaAt(schema, issue.path));
      const hint = known ? ` (known keys: ${Object.keys(known).join(', ') || 'none'})` : '';
      for (const key of issue.keys) {
        lines.push({ path: joinPath(prefix, [...issue.path, key]), message: `unknown key${hint}` });
      }
      continue;
    }
    const path = joinPath(prefix, issue.path) || '(root)';
    if (issue.code === 'invalid_type') {
      lines.push({
        path,
        message: found === undefined ? `required (expected ${issue.expected})` : `expected ${issue.expected}, got ${describeValue(found)}`,
      });
    } else if (issue.code === 'invalid_value') {
      const options = issue.values.map((v) => JSON.stringify(v)).join(', ');
      lines.push({ path, message: `expected one of ${options}, got ${describeValue(found)}` });
    } else if (issue.code === 'too_small' || issue.code === 'too_big' || issue.code === 'invalid_format') {
      lines.push({ path, message: `${issue.message.replace(/^Too (small|big): /, '')}; got ${describeValue(found)}` });
    } else {
      lines.push({ path, message: `${issue.message}; got ${describeValue(found)}` });
    }
  }
  return lines;
}

type Issue = z.ZodError['issues'][number];

/**
 * A union reports only "invalid input"; report instead the issues of the option that got furthest
 * (deepest path, then fewest issues), which is almost always the one the author meant.
 */
function flattenUnions(issues: readonly Issue[], base: PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    const options = issue.code === 'invalid_union' ? (issue as { errors?: Issue[][] }).errors : undefined;
    if (!options || options.length === 0) {
      out.push({ ...issue, path } as Issue);
      continue;
    }
    const depth = (list: Issue[]) => Math.max(0, ...list.map((i) => i.path.length));
    const best = [...options].sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
    out.push(...flattenUnions(best, path));
  }
  return out;
}

export function formatIssueLines(lines: IssueLine[]): string {
  return lines.map((l) => `${l.path}: ${l.message}`).join('\n');
}

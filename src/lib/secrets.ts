// Values that came from secret references in the config (`${env:…}`, `${file:…}`, `${cmd:…}`, and
// today's `${NAME}`): remembered for this process so that whatever mcphost prints — logs, command
// output, errors, tool error results — says «redacted» where one would appear. A value that names an
// existing absolute path (`${HOME}`) is where something is, not a credential, and a value shorter
// than MIN_LENGTH (`${PORT}`) would blank out ordinary words: neither is remembered.
import { existsSync } from 'node:fs';
import path from 'node:path';

const MIN_LENGTH = 6;
const REDACTED = '«redacted»';

const secrets = new Set<string>();
let ordered: string[] = [];

export function rememberSecret(value: string): void {
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH || secrets.has(trimmed)) return;
  if (path.isAbsolute(trimmed) && existsSync(trimmed)) return;
  secrets.add(trimmed);
  // Longest first, so a secret that contains another is replaced whole.
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** `text` with every remembered secret replaced. */
export function redact(text: string): string {
  if (ordered.length === 0) return text;
  let out = text;
  for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Any JSON-like value with its strings redacted. */
export function redactDeep<T>(value: T): T {
  if (ordered.length === 0) return value;
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactDeep) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}

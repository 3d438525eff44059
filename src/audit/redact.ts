// Arguments as the audit trail keeps them with `audit.arguments: true`: a value under a key that
// names a credential is replaced, a config secret anywhere in a string is too (lib/secrets.ts), and
// the whole is bounded (depth, entries, string length) so one call cannot bloat the trail.
import { redact } from '../lib/secrets.js';

const SECRET_KEY = /pass(word|phrase)?|secret|token|auth|api[-_]?key|cookie|credential|private[-_]?key|session/i;
const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;
const MAX_STRING = 512;

export function redactedArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    const text = redact(value);
    return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[deeper]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ENTRIES).map((v) => redactedArguments(v, depth + 1));
    return value.length > MAX_ENTRIES ? [...kept, `… ${value.length - MAX_ENTRIES} more`] : kept;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value);
  for (const [key, v] of entries.slice(0, MAX_ENTRIES)) out[key] = SECRET_KEY.test(key) ? '[redacted]' : redactedArguments(v, depth + 1);
  if (entries.length > MAX_ENTRIES) out['…'] = `${entries.length - MAX_ENTRIES} more`;
  return out;
}

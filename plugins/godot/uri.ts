// godot:// URIs: built in one place so tools, resources and BBCode links agree.
import type { SymbolKind } from './model.js';

/** Percent-encodes a name for a URI segment, keeping `@` (as in `@GlobalScope`) readable. */
function encodeSegment(name: string): string {
  return encodeURIComponent(name).replace(/%40/g, '@');
}

export function classUri(name: string): string {
  return `godot://class/${encodeSegment(name)}`;
}

export function symbolUri(className: string, kind: SymbolKind, name: string): string {
  return `godot://symbol/${encodeSegment(className)}/${kind}/${encodeSegment(name)}`;
}

/** A template variable as the URI carried it: decoded once, or left as is when not valid %-encoding. */
export function decodeVariable(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

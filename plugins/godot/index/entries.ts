// What the index keeps per class and per searchable symbol: names, where the class file is, and a
// short plain-text summary for snippets. Full details are re-read from the class file on demand.
import type { DocKind, RawClass } from '../model.js';
import { toPlain } from '../parse/bbcode.js';

export interface ClassEntry {
  name: string;
  inherits?: string;
  /** Class file, relative to the doc root. */
  file: string;
  /** Plain-text brief description. */
  brief: string;
}

export interface DocEntry {
  kind: DocKind;
  /** Index of the owning class in `classes`. */
  cls: number;
  name: string;
  /** Plain-text summary (brief, or the start of the description) for snippets. */
  text: string;
  /** For enum values: the enum they belong to. */
  enum?: string;
  /** How many cross-references in the whole reference point at this symbol (a popularity signal). */
  refs?: number;
}

/** The text fields ranked by BM25 for one document. */
export interface DocFields {
  name: string;
  owner: string;
  brief: string;
  body: string;
}

export const SUMMARY_CHARS = 240;

export function summary(plain: string, max = SUMMARY_CHARS): string {
  if (plain.length <= max) return plain;
  const cut = plain.lastIndexOf(' ', max);
  return `${plain.slice(0, cut > max / 2 ? cut : max)}…`;
}

function firstSentence(plain: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(plain);
  return m ? m[1] : plain;
}

export interface ClassEntries {
  cls: ClassEntry;
  docs: Array<{ entry: Omit<DocEntry, 'cls'>; fields: DocFields }>;
  refs: string[];
}

/** Turns one parsed class into index entries (without its class index filled in). */
export function entriesOf(raw: RawClass, file: string): ClassEntries {
  // Cross-references, as `Class` or `Class.member` (unqualified ones name this class), counted on the way.
  const refs: string[] = [];
  const onRef = (target: string, isClass: boolean) =>
    refs.push(isClass || /^@?[A-Z][A-Za-z0-9_]*\./.test(target) ? target : `${raw.name}.${target}`);
  const plain = (bbcode: string) => toPlain(bbcode, onRef);
  const brief = plain(raw.brief);
  const cls: ClassEntry = { name: raw.name, file, brief };
  if (raw.inherits) cls.inherits = raw.inherits;
  const docs: Array<{ entry: Omit<DocEntry, 'cls'>; fields: DocFields }> = [];
  const description = plain(raw.description);
  docs.push({
    entry: { kind: 'class', name: raw.name, text: summary(brief || description) },
    fields: { name: raw.name, owner: '', brief, body: description },
  });
  const member = (kind: DocKind, name: string, bbcode: string, extra?: string) => {
    const text = plain(bbcode);
    const entry: Omit<DocEntry, 'cls'> = { kind, name, text: summary(text) };
    if (extra) entry.enum = extra;
    docs.push({ entry, fields: { name, owner: extra ? `${raw.name} ${extra}` : raw.name, brief: firstSentence(text), body: text } });
  };
  for (const m of raw.methods) member('method', m.name, m.description);
  for (const p of raw.properties) if (!p.overrides) member('property', p.name, p.description);
  for (const s of raw.signals) member('signal', s.name, s.description);
  for (const c of raw.constants) member('constant', c.name, c.description, c.enum);
  for (const t of raw.themeItems) member('theme_item', t.name, t.description);
  for (const a of raw.annotations) member('annotation', a.name, a.description);
  return { cls, docs, refs };
}

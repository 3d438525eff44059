// What the index keeps per class and per searchable symbol: names, where the class file is, and a
// short plain-text summary for snippets. Full details are re-read from the class file on demand.
import type { DocKind, RawClass, Status } from '../model.js';
import { toPlain } from '../parse/bbcode.js';
import { anchorsOf, type Anchor } from './anchors.js';

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
  /** For enum values: the enum they belong to. */
  enum?: string;
  /** How many cross-references in the whole reference point at this symbol (a popularity signal). */
  refs?: number;
  /** A virtual method: a hook scripts implement (`_ready`, `_draw`), not an API they call. */
  virtual?: boolean;
  /** What the reference marks it with: deprecated or experimental, and what replaces it. */
  status?: DocStatus;
}

/** A symbol's `deprecated` / `experimental` attributes as plain text, and the symbols its deprecation note names. */
export interface DocStatus {
  deprecated?: string;
  experimental?: string;
  /** `Class` or `Class.member` the deprecation note points to ("Use [member AnimationMixer.root_node] instead."). */
  replacedBy?: string[];
}

/**
 * The text fields ranked by BM25F for one document. `anchor` is filled when the whole reference is
 * assembled: the sentences (and code-sample comments) of other descriptions that name this symbol.
 */
export interface DocFields {
  name: string;
  owner: string;
  brief: string;
  body: string;
  /** Comments and identifiers of the GDScript samples in the symbol's own description. */
  code: string;
  anchor: string;
  /** What the Godot manual says around its references to this symbol (manual/), filled with `anchor`. */
  manual: string;
}

export const FIELD_NAMES: ReadonlyArray<keyof DocFields> = ['name', 'owner', 'brief', 'body', 'code', 'anchor', 'manual'];

const SUMMARY_CHARS = 240;

function summary(plain: string, max = SUMMARY_CHARS): string {
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
  /** Each symbol: its entry, its fields, and its plain-text summary (brief, or the start of the description) for snippets. */
  docs: Array<{ entry: Omit<DocEntry, 'cls'>; fields: DocFields; summary: string }>;
  refs: string[];
  /** Text this class's descriptions say about other symbols, for their `anchor` fields. */
  anchors: Anchor[];
}

/** Turns one parsed class into index entries (without its class index filled in). */
export function entriesOf(raw: RawClass, file: string): ClassEntries {
  // Cross-references, as `Class` or `Class.member` (unqualified ones name this class), counted on the way.
  const refs: string[] = [];
  const onRef = (target: string, isClass: boolean) =>
    refs.push(isClass || /^@?[A-Z][A-Za-z0-9_]*\./.test(target) ? target : `${raw.name}.${target}`);
  const plain = (bbcode: string) => toPlain(bbcode, onRef);
  /** The notes as plain text; the names a deprecation note links to are what replaces the symbol. */
  const statusOf = (item: Status): DocStatus | undefined => {
    if (item.deprecated === undefined && item.experimental === undefined) return undefined;
    const status: DocStatus = {};
    if (item.deprecated !== undefined) {
      const named: string[] = [];
      status.deprecated = toPlain(item.deprecated, (target, isClass) =>
        named.push(isClass || /^@?[A-Z][A-Za-z0-9_]*\./.test(target) ? target : `${raw.name}.${target}`),
      ).trim();
      if (named.length) status.replacedBy = [...new Set(named)];
    }
    if (item.experimental !== undefined) status.experimental = toPlain(item.experimental).trim();
    return status;
  };
  const anchors: Anchor[] = [];
  const brief = plain(raw.brief);
  const cls: ClassEntry = { name: raw.name, file, brief };
  if (raw.inherits) cls.inherits = raw.inherits;
  const docs: ClassEntries['docs'] = [];
  const described = (bbcode: string, self: string) => {
    const found = anchorsOf(bbcode, raw.name, self);
    for (const a of found.anchors) anchors.push(a);
    return found.code;
  };
  const description = plain(raw.description);
  // Tutorial titles are the manual's words for what the class is for ("Using Area2D", "Background loading").
  const titles = raw.tutorials.map((t) => t.title ?? '').join('. ');
  const classStatus = statusOf(raw);
  docs.push({
    entry: classStatus ? { kind: 'class', name: raw.name, status: classStatus } : { kind: 'class', name: raw.name },
    summary: summary(brief || description),
    fields: {
      name: raw.name,
      owner: '',
      brief,
      body: titles ? `${description} ${titles}` : description,
      code: described(`${raw.brief}\n${raw.description}`, raw.name),
      anchor: '',
      manual: '',
    },
  });
  const member = (kind: DocKind, name: string, bbcode: string, extra?: { enum?: string; virtual?: boolean; item?: Status }) => {
    const text = plain(bbcode);
    const entry: Omit<DocEntry, 'cls'> = { kind, name };
    if (extra?.enum) entry.enum = extra.enum;
    if (extra?.virtual) entry.virtual = true;
    const status = extra?.item && statusOf(extra.item);
    if (status) entry.status = status;
    docs.push({
      entry,
      summary: summary(text),
      fields: {
        name,
        owner: extra?.enum ? `${raw.name} ${extra.enum}` : raw.name,
        brief: firstSentence(text),
        body: text,
        code: described(bbcode, `${raw.name}.${name}`),
        anchor: '',
        manual: '',
      },
    });
  };
  for (const m of raw.methods) member('method', m.name, m.description, { virtual: /\bvirtual\b/.test(m.qualifiers ?? ''), item: m });
  for (const p of raw.properties) if (!p.overrides) member('property', p.name, p.description, { item: p });
  for (const s of raw.signals) member('signal', s.name, s.description, { item: s });
  for (const c of raw.constants) member('constant', c.name, c.description, { enum: c.enum, item: c });
  for (const t of raw.themeItems) member('theme_item', t.name, t.description);
  for (const a of raw.annotations) member('annotation', a.name, a.description, { item: a });
  return { cls, docs, refs, anchors };
}

// godot_get_class: a class as clients see it, descriptions in Markdown and a signature per member.
// The shapes are the seed's (GodotMethod / GodotSignal `arguments`, `qualifiers: string[]`,
// GodotClassDoc `themeItems: Record<data type, names>`, `annotations: string[]`, `category`,
// `since`), with this plugin's extra detail beside them (`signature`, `params` — an alias of
// `arguments` kept for one release —, `themeItemDetails`, `annotationDetails`).
import type {
  ConstantDoc,
  DocKind,
  MethodDoc,
  ParamDoc,
  PropertyDoc,
  RawClass,
  SignalDoc,
  Status,
  ThemeItemDoc,
  TutorialLink,
} from '../model.js';
import type { DocIndex } from '../search-index/doc-index.js';
import { DOCS_URL, toMarkdown } from '../parse/bbcode.js';
import { classUri } from '../uri.js';
import {
  annotationSignature,
  constantSignature,
  methodSignature,
  propertySignature,
  signalSignature,
  themeItemSignature,
} from '../signature.js';

export interface MethodOut extends Status {
  name: string;
  signature: string;
  returnType: string;
  arguments: ParamDoc[];
  /** @deprecated the same array as `arguments`; kept for one release. */
  params: ParamDoc[];
  /** `const`, `static`, `virtual`, `vararg` … */
  qualifiers?: string[];
  description: string;
}
export interface PropertyOut extends Omit<PropertyDoc, 'description'> {
  signature: string;
  description: string;
}
export interface SignalOut extends Status {
  name: string;
  signature: string;
  arguments: ParamDoc[];
  /** @deprecated the same array as `arguments`; kept for one release. */
  params: ParamDoc[];
  description: string;
}
export interface ConstantOut extends Omit<ConstantDoc, 'description'> {
  signature: string;
  description: string;
}
export interface ThemeItemOut extends Omit<ThemeItemDoc, 'description'> {
  signature: string;
  description: string;
}

export interface GodotClassDoc extends Status {
  name: string;
  uri: string;
  inherits?: string;
  /** The class and its ancestors, nearest first: ["CharacterBody2D", "PhysicsBody2D", …, "Object"]. */
  inheritanceChain: string[];
  brief: string;
  description: string;
  tutorials: TutorialLink[];
  methods: MethodOut[];
  properties: PropertyOut[];
  signals: SignalOut[];
  constants: ConstantOut[];
  /** Theme item names by data type (`color`, `constant`, `font`, `font_size`, `icon`, `style`). */
  themeItems?: Record<string, string[]>;
  themeItemDetails?: ThemeItemOut[];
  /** Annotation names (`@export`, `@onready` …). */
  annotations?: string[];
  annotationDetails?: MethodOut[];
  constructors?: MethodOut[];
  operators?: MethodOut[];
  /** The class file's `category` attribute, when it has one (Godot 4 files have none). */
  category?: string;
  /**
   * The Godot version the class file declares (its `version` attribute, written by 3.x). Godot 4's
   * XML records no version, so 4.x classes have none.
   */
  since?: string;
}

export type Md = (bbcode: string) => string;

/** Markdown converter for texts of one class, linking only to classes that exist. */
export function markdownFor(index: DocIndex, className: string): Md {
  const isClass = (name: string) => index.classId(name) !== undefined && index.classes[index.classId(name)!].name === name;
  return (bbcode) => toMarkdown(bbcode, { className, isClass });
}

function status<T extends Status>(from: Status, out: T, md: Md): T {
  if (from.deprecated !== undefined) out.deprecated = md(from.deprecated);
  if (from.experimental !== undefined) out.experimental = md(from.experimental);
  return out;
}

export function methodOut(m: MethodDoc, md: Md): MethodOut {
  const out: MethodOut = {
    name: m.name,
    signature: m.name.startsWith('@') ? annotationSignature(m) : methodSignature(m),
    returnType: m.returnEnum ?? m.returnType,
    arguments: m.params,
    params: m.params,
    description: md(m.description),
  };
  const qualifiers = m.qualifiers?.split(/\s+/).filter(Boolean);
  if (qualifiers?.length) out.qualifiers = qualifiers;
  return status(m, out, md);
}

export function propertyOut(p: PropertyDoc, md: Md): PropertyOut {
  return status(p, { ...p, signature: propertySignature(p), description: md(p.description) }, md);
}

export function signalOut(s: SignalDoc, md: Md): SignalOut {
  const out: SignalOut = {
    name: s.name,
    signature: signalSignature(s),
    arguments: s.params,
    params: s.params,
    description: md(s.description),
  };
  return status(s, out, md);
}

export function constantOut(c: ConstantDoc, md: Md): ConstantOut {
  return status(c, { ...c, signature: constantSignature(c), description: md(c.description) }, md);
}

export function themeItemOut(t: ThemeItemDoc, md: Md): ThemeItemOut {
  return { ...t, signature: themeItemSignature(t), description: md(t.description) };
}

export function classDoc(index: DocIndex, clsId: number): GodotClassDoc {
  const raw: RawClass = index.rawClass(clsId);
  const md = markdownFor(index, raw.name);
  const out: GodotClassDoc = {
    name: raw.name,
    uri: classUri(raw.name),
    inheritanceChain: index.chain(clsId).map((id) => index.classes[id].name),
    brief: md(raw.brief),
    description: md(raw.description),
    tutorials: raw.tutorials.map((t) => ({ ...t, url: t.url.replace('$DOCS_URL', DOCS_URL) })),
    methods: raw.methods.map((m) => methodOut(m, md)),
    properties: raw.properties.map((p) => propertyOut(p, md)),
    signals: raw.signals.map((s) => signalOut(s, md)),
    constants: raw.constants.map((c) => constantOut(c, md)),
  };
  if (raw.inherits) out.inherits = raw.inherits;
  if (raw.themeItems.length) {
    const byType: Record<string, string[]> = {};
    for (const t of raw.themeItems) (byType[t.dataType] ??= []).push(t.name);
    out.themeItems = byType;
    out.themeItemDetails = raw.themeItems.map((t) => themeItemOut(t, md));
  }
  if (raw.annotations.length) {
    out.annotations = raw.annotations.map((a) => a.name);
    out.annotationDetails = raw.annotations.map((a) => methodOut(a, md));
  }
  if (raw.constructors.length) out.constructors = raw.constructors.map((c) => methodOut(c, md));
  if (raw.operators.length) out.operators = raw.operators.map((o) => methodOut(o, md));
  if (raw.category) out.category = raw.category;
  if (raw.version) out.since = raw.version;
  // What replaces a deprecated member: the names its note links to, collected when the index was built.
  const replaced = (kind: DocKind, list: Array<Status & { name: string }>) => {
    for (const item of list) {
      if (item.deprecated === undefined) continue;
      const id = index.member(clsId, kind, item.name);
      const by = id === undefined ? undefined : index.docs[id].status?.replacedBy;
      if (by) item.replacedBy = by;
    }
  };
  replaced('method', out.methods);
  replaced('property', out.properties);
  replaced('signal', out.signals);
  replaced('constant', out.constants);
  const own = index.docs[index.classDoc(clsId) ?? -1]?.status?.replacedBy;
  const doc = status(raw, out, md);
  if (own && doc.deprecated !== undefined) doc.replacedBy = own;
  return doc;
}

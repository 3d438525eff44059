// godot_get_symbol: one member with its signature and Markdown description, saying when it was
// found on an ancestor of the class asked for.
import type { SymbolKind } from '../model.js';
import type { DocIndex } from '../search-index/doc-index.js';
import type { ResolvedSymbol } from '../lookup/resolve.js';
import { symbolUri } from '../uri.js';
import type { Godot3Note } from '../lookup/version.js';
import { changedSince3 } from '../lookup/version.js';
import { constantOut, markdownFor, methodOut, propertyOut, signalOut, themeItemOut, type ConstantOut } from './class-doc.js';

export interface SymbolDoc {
  kind: SymbolKind;
  /** The class that declares the symbol. */
  className: string;
  name: string;
  /** `Class.name`, with the declaring class. */
  qname: string;
  uri: string;
  signature?: string;
  description: string;
  /** Set when the symbol was asked for on a descendant of its declaring class. */
  inherited?: { requestedClass: string; declaredIn: string; chain: string[] };
  note?: string;
  /** Other kinds with the same name in the declaring class (fetch them with the symbol URI). */
  alsoKinds?: SymbolKind[];
  /** For enums: their values. */
  values?: ConstantOut[];
  /** What the deprecation note names as the replacement (`Class.member`), when the symbol is deprecated. */
  replacedBy?: string[];
  /** Asked by a Godot 3 name, or changed since Godot 3: what Godot 3 had and what changed. */
  godot3?: Godot3Note;
  [detail: string]: unknown;
}

function details(index: DocIndex, r: ResolvedSymbol): Record<string, unknown> & { description: string; signature?: string } {
  const raw = index.rawClass(r.clsId);
  const md = markdownFor(index, raw.name);
  const pick = <T extends { name: string }>(list: T[]) => list.find((x) => x.name === r.name);
  switch (r.kind) {
    case 'method': {
      const m = pick(raw.methods);
      return m ? { ...methodOut(m, md) } : { description: '' };
    }
    case 'annotation': {
      const a = pick(raw.annotations);
      return a ? { ...methodOut(a, md) } : { description: '' };
    }
    case 'property': {
      const p = raw.properties.find((x) => x.name === r.name && !x.overrides);
      return p ? { ...propertyOut(p, md) } : { description: '' };
    }
    case 'signal': {
      const s = pick(raw.signals);
      return s ? { ...signalOut(s, md) } : { description: '' };
    }
    case 'constant': {
      const c = pick(raw.constants);
      return c ? { ...constantOut(c, md) } : { description: '' };
    }
    case 'theme_item': {
      const t = pick(raw.themeItems);
      return t ? { ...themeItemOut(t, md) } : { description: '' };
    }
    case 'enum': {
      const values = raw.constants.filter((c) => c.enum === r.name || c.enum === `${raw.name}.${r.name}`).map((c) => constantOut(c, md));
      const bitfield = values.some((v) => v.isBitfield);
      return { signature: `enum ${r.name}`, description: '', values, ...(bitfield && { isBitfield: true }) };
    }
  }
}

/** `asked`: the Godot 3 name the caller used, when the symbol is its Godot 4 successor. */
export function symbolDoc(index: DocIndex, r: ResolvedSymbol, asked?: Godot3Note): SymbolDoc {
  const className = index.classes[r.clsId].name;
  const { name: _name, ...rest } = details(index, r);
  const out: SymbolDoc = {
    kind: r.kind,
    className,
    name: r.name,
    qname: `${className}.${r.name}`,
    uri: symbolUri(className, r.kind, r.name),
    ...rest,
    description: rest.description,
  };
  if (r.requestedClsId !== r.clsId) {
    const chain = index.chain(r.requestedClsId).map((id) => index.classes[id].name);
    const requested = index.classes[r.requestedClsId].name;
    out.inherited = { requestedClass: requested, declaredIn: className, chain: chain.slice(0, chain.indexOf(className) + 1) };
    out.note = `${requested}.${r.name} is inherited: it is declared in ${className} (${out.inherited.chain.join(' → ')}).`;
  }
  if (r.alsoKinds.length) out.alsoKinds = r.alsoKinds;
  const replacedBy = r.docId === undefined ? undefined : index.docs[r.docId].status?.replacedBy;
  if (replacedBy && out.deprecated !== undefined) out.replacedBy = replacedBy;
  const godot3 = asked ?? changedSince3(index, r.clsId, r.name);
  if (godot3) {
    out.godot3 = godot3;
    out.note = out.note ? `${godot3.note} ${out.note}` : godot3.note;
  }
  return out;
}

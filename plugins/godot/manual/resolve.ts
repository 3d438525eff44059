// Which symbol of the reference a manual anchor means, and the text each symbol gets from the
// manual (its `manual` field). A `:ref:` label names its class, kind and member; a name in a literal
// or a sample is `Class.member`, a class, or a bare member name, which is looked for in the classes
// the sample extends, then the classes the page refers to (with their ancestors), then taken when
// only one class of the reference declares it. Names the reference does not know (a Godot 3 page's
// `Spatial`, a game's own functions) are dropped and counted.
import type { DocKind } from '../model.js';
import type { ManualPage, ManualTarget } from './rst.js';

/** What the table needs of the index's class and symbol entries (index/entries.ts has them). */
export interface TableClass {
  name: string;
  inherits?: string;
}
export interface TableDoc {
  kind: DocKind;
  /** Index of the owning class. */
  cls: number;
  name: string;
}

/** Text a symbol gets from the manual at most (the symbols every page mentions, Node and add_child, stop growing there). */
const MANUAL_CHARS = 2000;

const LABEL_KINDS: Record<string, DocKind> = {
  method: 'method',
  property: 'property',
  signal: 'signal',
  constant: 'constant',
  annotation: 'annotation',
};

export class SymbolTable {
  private readonly classIds = new Map<string, number>();
  private readonly classDoc = new Map<number, number>();
  /** `${cls}.${lowercase name}` → doc ids (every kind). */
  private readonly members = new Map<string, number[]>();
  /** lowercase member name → doc ids in every class. */
  private readonly byName = new Map<string, number[]>();

  constructor(
    readonly classes: readonly TableClass[],
    readonly docs: readonly TableDoc[],
  ) {
    classes.forEach((c, i) => {
      if (!this.classIds.has(c.name.toLowerCase())) this.classIds.set(c.name.toLowerCase(), i);
    });
    docs.forEach((d, id) => {
      if (d.kind === 'class') {
        this.classDoc.set(d.cls, id);
        return;
      }
      const key = `${d.cls}.${d.name.toLowerCase()}`;
      (this.members.get(key) ?? this.members.set(key, []).get(key)!).push(id);
      const name = d.name.toLowerCase();
      (this.byName.get(name) ?? this.byName.set(name, []).get(name)!).push(id);
    });
  }

  classId(name: string): number | undefined {
    return this.classIds.get(name.toLowerCase());
  }

  chain(cls: number): number[] {
    const out = [cls];
    for (let parent = this.classes[cls].inherits; parent !== undefined;) {
      const id = this.classId(parent);
      if (id === undefined || out.includes(id)) break;
      out.push(id);
      parent = this.classes[id].inherits;
    }
    return out;
  }

  /** The member `name` of class `cls` or its nearest ancestor (of `kind` when given, else scripts' members before theme items). */
  member(cls: number, name: string, kind?: DocKind): number | undefined {
    for (const c of this.chain(cls)) {
      const ids = this.members.get(`${c}.${name.toLowerCase()}`);
      if (!ids) continue;
      const hit = kind ? ids.find((id) => this.docs[id].kind === kind) : (ids.find((id) => this.docs[id].kind !== 'theme_item') ?? ids[0]);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  classDocOf(cls: number): number | undefined {
    return this.classDoc.get(cls);
  }

  /** The member named `name` when exactly one class declares it. */
  unique(name: string): number | undefined {
    const ids = this.byName.get(name.toLowerCase());
    if (!ids) return undefined;
    const owners = new Set(ids.map((id) => this.docs[id].cls));
    return owners.size === 1 ? ids[0] : undefined;
  }
}

/** `class_Node_method_add_child` → the doc of Node.add_child (labels are case-insensitive). */
function resolveLabel(table: SymbolTable, label: string): number | undefined {
  const m = /^class_([^_]+)(?:_(private_)?(method|property|signal|constant|annotation|theme_[a-z]+?)_(.+))?$/i.exec(label);
  if (!m) return undefined;
  const cls = table.classId(m[1]);
  if (cls === undefined) return undefined;
  if (!m[4]) return table.classDocOf(cls);
  const kind = m[3].toLowerCase().startsWith('theme_') ? 'theme_item' : LABEL_KINDS[m[3].toLowerCase()];
  return table.member(cls, m[4], kind) ?? table.member(cls, m[4]);
}

function resolveName(
  table: SymbolTable,
  name: string,
  scope: readonly number[],
  pageClasses: readonly number[],
  pageOnly = false,
): number | undefined {
  if (pageOnly) {
    for (const cls of pageClasses) {
      const hit = table.member(cls, name);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const dot = name.indexOf('.');
  if (dot > 0) {
    const cls = table.classId(name.slice(0, dot));
    return cls === undefined ? undefined : table.member(cls, name.slice(dot + 1));
  }
  if (/^@?[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/.test(name)) {
    const cls = table.classId(name);
    if (cls !== undefined) return table.classDocOf(cls);
  }
  for (const cls of [...scope, ...pageClasses]) {
    const hit = table.member(cls, name);
    if (hit !== undefined) return hit;
  }
  return table.unique(name);
}

function resolveTarget(table: SymbolTable, target: ManualTarget, pageClasses: readonly number[]): number | undefined {
  if ('label' in target) return resolveLabel(table, target.label);
  const scope = (target.scope ?? []).map((c) => table.classId(c)).filter((c): c is number => c !== undefined);
  return resolveName(table, target.name, scope, pageClasses, target.pageOnly);
}

export interface ManualTexts {
  /** doc id → the manual's words about it. */
  texts: Map<number, string>;
  /** Anchors resolved and dropped (names the reference does not have). */
  resolved: number;
  dropped: number;
}

/** Collects, per symbol, the sentences, section titles and page titles of the anchors that name it (each once). */
export function manualTexts(table: SymbolTable, pages: Iterable<ManualPage>): ManualTexts {
  const parts = new Map<number, Set<string>>();
  const sizes = new Map<number, number>();
  let resolved = 0;
  let dropped = 0;
  for (const page of pages) {
    const pageClasses = [...page.classes].map((c) => table.classId(c)).filter((c): c is number => c !== undefined);
    for (const anchor of page.anchors) {
      const id = resolveTarget(table, anchor.target, pageClasses);
      if (id === undefined) {
        dropped++;
        continue;
      }
      resolved++;
      let set = parts.get(id);
      if (!set) parts.set(id, (set = new Set()));
      for (const piece of [anchor.text, anchor.section, page.title]) {
        if (!piece || set.has(piece) || (sizes.get(id) ?? 0) + piece.length > MANUAL_CHARS) continue;
        set.add(piece);
        sizes.set(id, (sizes.get(id) ?? 0) + piece.length + 2);
      }
    }
  }
  const texts = new Map<number, string>();
  for (const [id, set] of parts) texts.set(id, [...set].map((t) => (/[.!?:]$/.test(t) ? t : `${t}.`)).join(' '));
  return { texts, resolved, dropped };
}

// The loaded index: class and symbol tables with lookups by name, the inheritance chain, and full
// class details parsed on demand from the class file (kept in a small cache).
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { DocKind, RawClass } from '../model.js';
import { isInside } from '../corpus/discover.js';
import { readClassFile } from '../corpus/read-file.js';
import { parseClassXml } from '../parse/xml.js';
import type { BuiltIndex } from './build.js';
import type { Engine } from './engine.js';
import type { ClassEntry, DocEntry } from './entries.js';
import type { Summaries } from './summaries.js';

const DETAIL_CACHE = 48;

export class DocIndex {
  readonly classes: ClassEntry[];
  readonly docs: DocEntry[];
  readonly engine: Engine;
  readonly summaries: Summaries;
  readonly warnings: string[];
  readonly root: string;
  private readonly classIds = new Map<string, number>();
  private readonly classIdsLower = new Map<string, number>();
  /** Per class: `${kind}:${name}` → doc id. */
  private readonly members: Array<Map<string, number>>;
  /** Per class: the doc id of the class itself. */
  private readonly classDocs: number[] = [];
  /** Per class: enum name → ids of its values. */
  private readonly enums: Array<Map<string, number[]>>;
  /** Lowercased symbol name → doc ids (for exact-name boosts and "exists elsewhere" hints). */
  readonly byName = new Map<string, number[]>();
  private readonly details = new Map<string, RawClass>();
  /** Lowercased symbol names, sorted (built on first prefix lookup). */
  private sortedNames?: string[];

  constructor(built: BuiltIndex, root: string) {
    this.classes = built.classes;
    this.docs = built.docs;
    this.engine = built.engine;
    this.summaries = built.summaries;
    this.warnings = built.warnings;
    this.root = root;
    this.members = this.classes.map(() => new Map());
    this.enums = this.classes.map(() => new Map());
    this.classes.forEach((c, i) => {
      this.classIds.set(c.name, i);
      if (!this.classIdsLower.has(c.name.toLowerCase())) this.classIdsLower.set(c.name.toLowerCase(), i);
    });
    this.docs.forEach((d, id) => {
      const key = d.name.toLowerCase();
      const list = this.byName.get(key);
      if (list) list.push(id);
      else this.byName.set(key, [id]);
      if (d.kind === 'class') {
        this.classDocs[d.cls] = id;
        return;
      }
      this.members[d.cls].set(`${d.kind}:${d.name}`, id);
      if (d.enum) {
        const values = this.enums[d.cls].get(d.enum);
        if (values) values.push(id);
        else this.enums[d.cls].set(d.enum, [id]);
      }
    });
  }

  /** Docs whose lowercased name starts with `prefix` (at most `max`). */
  namesStartingWith(prefix: string, max = 50): number[] {
    const names = (this.sortedNames ??= [...this.byName.keys()].sort());
    let lo = 0;
    let hi = names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (names[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < names.length && names[i].startsWith(prefix) && out.length < max; i++) out.push(...this.byName.get(names[i])!);
    return out.slice(0, max);
  }

  /** Exact class name, or the one class whose name matches ignoring case. */
  classId(name: string): number | undefined {
    return this.classIds.get(name) ?? this.classIdsLower.get(name.toLowerCase());
  }

  classNames(): string[] {
    return this.classes.map((c) => c.name);
  }

  /** The class and its ancestors, nearest first (stops at unknown parents and cycles). */
  chain(clsId: number): number[] {
    const out = [clsId];
    let parent = this.classes[clsId].inherits;
    while (parent !== undefined) {
      const id = this.classIds.get(parent);
      if (id === undefined || out.includes(id)) break;
      out.push(id);
      parent = this.classes[id].inherits;
    }
    return out;
  }

  /** The document of the class itself. */
  classDoc(clsId: number): number | undefined {
    return this.classDocs[clsId];
  }

  member(clsId: number, kind: DocKind, name: string): number | undefined {
    return this.members[clsId].get(`${kind}:${name}`);
  }

  memberDocs(clsId: number): number[] {
    return [...this.members[clsId].values()];
  }

  enumValues(clsId: number, enumName: string): number[] | undefined {
    return this.enums[clsId].get(enumName);
  }

  enumNames(clsId: number): string[] {
    return [...this.enums[clsId].keys()];
  }

  /** Plain-text summary of a symbol (brief, or the start of its description). */
  summary(docId: number): string {
    return this.summaries.get(docId);
  }

  qualifiedName(docId: number): string {
    const d = this.docs[docId];
    return d.kind === 'class' ? d.name : `${this.classes[d.cls].name}.${d.name}`;
  }

  /** Full details of a class, parsed from its file (only files inside the doc root are read). */
  rawClass(clsId: number): RawClass {
    const entry = this.classes[clsId];
    const hit = this.details.get(entry.name);
    if (hit) {
      this.details.delete(entry.name);
      this.details.set(entry.name, hit);
      return hit;
    }
    // The file name comes from the (possibly saved) index: check where it really leads before reading.
    const file = path.resolve(this.root, entry.file);
    const real = existsSync(file) ? realpathSync(file) : file;
    if (!isInside(this.root, file) || !isInside(this.root, real))
      throw new Error(`refusing to read ${file}: it is outside the doc folder ${this.root}`);
    const raw = parseClassXml(readClassFile(real), entry.file);
    this.details.set(entry.name, raw);
    if (this.details.size > DETAIL_CACHE) this.details.delete(this.details.keys().next().value!);
    return raw;
  }
}

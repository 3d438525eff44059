// A loaded snapshot: its roots, and the recorded type metadata with the look-ups the evaluator and
// explore need (short names, inherited members, which members hold floating-point numbers).
import type { MemberInfo, MethodInfo, TypeInfo } from '../format.js';
import { shortType, type Value } from '../model.js';
import type { HudWrites } from '../writes.js';

export interface SnapshotHeader {
  version: number;
  recordedAt?: string;
  source?: Record<string, unknown>;
  /** How the recorded HUD writes its answers (the seed's forms for a snapshot that does not say). */
  writes: HudWrites;
  file?: string;
}

const FLOAT_TYPES = new Set([
  'Single',
  'Double',
  'Decimal',
  'float',
  'double',
  'decimal',
  'System.Single',
  'System.Double',
  'System.Decimal',
]);

export class Snapshot {
  readonly roots: Map<string, Value>;
  readonly types: Map<string, TypeInfo>;
  readonly header: SnapshotHeader;
  private readonly byShort = new Map<string, string[]>();
  /** Per member name: declared floating point everywhere, integral everywhere, or both (decided per object). */
  private readonly numberKinds = new Map<string, Set<'float' | 'other'>>();
  private readonly floatCache = new Map<string, boolean>();

  constructor(roots: Map<string, Value>, types: Map<string, TypeInfo>, header: SnapshotHeader) {
    this.roots = roots;
    this.types = types;
    this.header = header;
    for (const [full, info] of types) {
      const short = shortType(full);
      this.byShort.set(short, [...(this.byShort.get(short) ?? []), full]);
      for (const m of info.members ?? []) {
        const kinds = this.numberKinds.get(m.name) ?? new Set();
        kinds.add(FLOAT_TYPES.has(m.type) ? 'float' : 'other');
        this.numberKinds.set(m.name, kinds);
      }
    }
  }

  /** Whether C# types a member of this name as floating point: by name alone when all declarations agree. */
  numberKind(member: string): 'float' | 'int' | 'mixed' {
    const kinds = this.numberKinds.get(member);
    if (!kinds?.has('float')) return 'int';
    return kinds.size === 1 ? 'float' : 'mixed';
  }

  /** Whether `typeName` (or a base) declares `member` with a floating-point type. */
  isFloatMember(typeName: string | undefined, member: string): boolean {
    const key = `${typeName}\u0000${member}`;
    let found = this.floatCache.get(key);
    if (found === undefined) this.floatCache.set(key, (found = FLOAT_TYPES.has(this.member(typeName, member)?.type ?? '')));
    return found;
  }

  /** By full name, or by a short name that only one recorded type has. */
  findType(name: string): { info?: TypeInfo; candidates: string[] } {
    const exact = this.types.get(name);
    if (exact) return { info: exact, candidates: [name] };
    const bySuffix = this.byShort.get(shortType(name)) ?? [];
    const fits = name.includes('.') ? bySuffix.filter((full) => full.endsWith(`.${name}`) || full === name) : bySuffix;
    return { info: fits.length === 1 ? this.types.get(fits[0]) : undefined, candidates: fits };
  }

  type(name: string | undefined): TypeInfo | undefined {
    return name === undefined ? undefined : this.findType(name).info;
  }

  /** The type and its base types, most derived first (cycles cut). */
  lineage(name: string | undefined): TypeInfo[] {
    const out: TypeInfo[] = [];
    const seen = new Set<string>();
    for (let info = this.type(name); info && !seen.has(info.type); info = this.type(info.baseType)) {
      seen.add(info.type);
      out.push(info);
    }
    return out;
  }

  /** Members declared by the type and its bases (a derived declaration hides the base one). */
  members(name: string | undefined): MemberInfo[] {
    const out = new Map<string, MemberInfo>();
    for (const info of this.lineage(name)) for (const m of info.members ?? []) if (!out.has(m.name)) out.set(m.name, m);
    return [...out.values()];
  }

  member(typeName: string | undefined, member: string): MemberInfo | undefined {
    for (const info of this.lineage(typeName)) {
      const m = info.members?.find((x) => x.name === member);
      if (m) return m;
    }
    return undefined;
  }

  methods(name: string | undefined): MethodInfo[] {
    const out = new Map<string, MethodInfo>();
    for (const info of this.lineage(name))
      for (const m of info.methods ?? []) if (!out.has(m.signature ?? m.name)) out.set(m.signature ?? m.name, m);
    return [...out.values()];
  }

  method(typeName: string | undefined, name: string): MethodInfo | undefined {
    return this.methods(typeName).find((m) => baseName(m.name) === name);
  }

  /** True when `typeName` is `target` or derives from it (full or short names). */
  isA(typeName: string | undefined, target: string): boolean {
    if (typeName === undefined) return false;
    const matches = (n: string) => n === target || shortType(n) === target || n.endsWith(`.${target}`);
    if (matches(typeName)) return true;
    return this.lineage(typeName).some((info) => matches(info.type) || (info.baseType !== undefined && matches(info.baseType)));
  }

  isStruct(typeName: string | undefined): boolean {
    return this.type(typeName)?.kind === 'struct';
  }
}

/** `GetComponent<T>` → `GetComponent`. */
function baseName(method: string): string {
  const i = method.indexOf('<');
  return i < 0 ? method : method.slice(0, i);
}

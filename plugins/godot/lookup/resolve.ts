// Names → index entries: classes (exact, then ignoring case), members along the inheritance chain
// (`CharacterBody2D.add_child` is Node.add_child), enums and `Enum.VALUE`, and bare globals
// (`lerp` → @GlobalScope.lerp). Misses throw NotFoundError with a did-you-mean list.
import { NotFoundError } from '../../../src/backend/index.js';
import type { DocKind, SymbolKind } from '../model.js';
import type { DocIndex } from '../search-index/doc-index.js';
import { checkClassName, splitQualified } from './names.js';
import { CLASS_RENAMES, MEMBER_RENAMES } from './renames.js';
import { closest } from '../../../src/kit/index.js';

/**
 * Order in which kinds are tried when a name could be several. Theme items live apart from script
 * members (`Button.pressed` is BaseButton's signal, not Button's "pressed" style box), so they are
 * only tried when no ancestor has a script member of that name.
 */
const SCRIPT_KINDS: Array<Exclude<DocKind, 'class'>> = ['method', 'property', 'signal', 'constant', 'annotation'];
export const GLOBAL_CLASSES = ['@GlobalScope', '@GDScript'];

export interface ResolvedSymbol {
  kind: SymbolKind;
  /** Class that declares the symbol. */
  clsId: number;
  name: string;
  /** The doc entry (absent for enums, which are not documents themselves). */
  docId?: number;
  /** Class the caller named (differs from clsId for inherited members). */
  requestedClsId: number;
  /** Other kinds sharing this name in the declaring class. */
  alsoKinds: SymbolKind[];
}

export function classSuggestions(index: DocIndex, name: string): string[] {
  const renamed = CLASS_RENAMES[name];
  const out = renamed && index.classId(renamed) !== undefined ? [renamed] : [];
  return [...new Set([...out, ...closest(name, index.classNames(), 5)])].slice(0, 5);
}

export function resolveClass(index: DocIndex, value: string): number {
  const name = checkClassName(value, 'name');
  const id = index.classId(name);
  if (id !== undefined) return id;
  const suggestions = classSuggestions(index, name);
  const renamed = CLASS_RENAMES[name];
  const why = renamed ? ` (${name} was renamed to ${renamed} in Godot 4)` : '';
  throw new NotFoundError(`No Godot class named ${name}${why}.${suggestions.length ? ` Did you mean ${suggestions.join(', ')}?` : ''}`, {
    data: { suggestions },
  });
}

function findIn(index: DocIndex, clsId: number, member: string, kind?: SymbolKind): Omit<ResolvedSymbol, 'requestedClsId'> | undefined {
  const kinds = kind ? (kind === 'enum' ? [] : [kind as Exclude<DocKind, 'class'>]) : SCRIPT_KINDS;
  const found = kinds.map((k) => ({ k, id: index.member(clsId, k, member) })).filter((x) => x.id !== undefined);
  if (found.length) {
    return { kind: found[0].k, clsId, name: member, docId: found[0].id, alsoKinds: found.slice(1).map((f) => f.k) };
  }
  if ((!kind || kind === 'enum') && index.enumValues(clsId, member)) return { kind: 'enum', clsId, name: member, alsoKinds: [] };
  // `Enum.VALUE` names a constant of that enum.
  const dot = member.indexOf('.');
  if ((!kind || kind === 'constant') && dot > 0) {
    const values = index.enumValues(clsId, member.slice(0, dot)) ?? [];
    const hit = values.find((id) => index.docs[id].name === member.slice(dot + 1));
    if (hit !== undefined) return { kind: 'constant', clsId, name: index.docs[hit].name, docId: hit, alsoKinds: [] };
  }
  return undefined;
}

/** Looks a member up in the class and then its ancestors, nearest first. */
export function findMember(index: DocIndex, clsId: number, member: string, kind?: SymbolKind): ResolvedSymbol | undefined {
  for (const cid of index.chain(clsId)) {
    const hit = findIn(index, cid, member, kind);
    if (hit) return { ...hit, requestedClsId: clsId };
  }
  if (kind === undefined) return findMember(index, clsId, member, 'theme_item');
  return undefined;
}

export function memberSuggestions(index: DocIndex, clsId: number | undefined, member: string): string[] {
  const out: string[] = [];
  const cls = clsId === undefined ? undefined : index.classes[clsId].name;
  const renamed = cls ? MEMBER_RENAMES[`${cls}.${member}`] : undefined;
  if (renamed) out.push(renamed);
  const scope =
    clsId === undefined ? GLOBAL_CLASSES.map((n) => index.classId(n)).filter((id): id is number => id !== undefined) : index.chain(clsId);
  const names = new Map<string, string>();
  for (const cid of scope) {
    for (const id of index.memberDocs(cid))
      if (!names.has(index.docs[id].name)) names.set(index.docs[id].name, `${cls ?? index.classes[cid].name}.${index.docs[id].name}`);
  }
  for (const name of closest(member, names.keys(), 5)) out.push(names.get(name)!);
  // The same name in other classes (`Node2D.move_and_slide` → CharacterBody2D.move_and_slide).
  for (const id of (index.byName.get(member.toLowerCase()) ?? []).slice(0, 5))
    if (index.docs[id].kind !== 'class') out.push(index.qualifiedName(id));
  return [...new Set(out)].slice(0, 8);
}

/** Resolves `Class.member`, `Class.Enum`, `Class.Enum.VALUE` or a bare global (`lerp`). */
export function resolveSymbol(index: DocIndex, qname: string, kind?: SymbolKind): ResolvedSymbol {
  const { cls, member } = splitQualified(qname);
  if (cls === undefined) {
    for (const g of GLOBAL_CLASSES) {
      const id = index.classId(g);
      const hit = id === undefined ? undefined : findMember(index, id, member, kind);
      if (hit) return hit;
    }
    const suggestions = memberSuggestions(index, undefined, member);
    const asClass =
      index.classId(member) !== undefined ? ` ${member} is a class: use godot_get_class, or name a member as ${member}.name.` : '';
    throw new NotFoundError(
      `No global Godot symbol named ${member}.${asClass}${suggestions.length ? ` Did you mean ${suggestions.join(', ')}?` : ''}`,
      {
        data: { suggestions },
      },
    );
  }
  const clsId = resolveClass(index, cls);
  const hit = findMember(index, clsId, member, kind);
  if (hit) return hit;
  const suggestions = memberSuggestions(index, clsId, member);
  const what = kind ? `${kind} ` : '';
  const renamed = MEMBER_RENAMES[`${index.classes[clsId].name}.${member}`];
  const why = renamed ? ` (renamed to ${renamed} in Godot 4)` : '';
  throw new NotFoundError(
    `${index.classes[clsId].name} has no ${what}${member}, nor do its ancestors${why}.${suggestions.length ? ` Did you mean ${suggestions.join(', ')}?` : ''}`,
    { data: { suggestions } },
  );
}

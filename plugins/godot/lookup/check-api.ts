// godot_check_api: does each `Class.member(args)` exist, with what real signature, and what is the
// closest real thing when it does not (renames from Godot 3, similar names, the same name elsewhere).
import type { DocIndex } from '../index/doc-index.js';
import type { SymbolKind } from '../model.js';
import { classUri, symbolUri } from '../uri.js';
import {
  annotationSignature,
  arity,
  methodSignature,
  propertySignature,
  signalSignature,
  constantSignature,
  themeItemSignature,
} from '../view/signature.js';
import { countArgs, scanGdscript, type ApiRef } from './gdscript.js';
import { CLASS_RENAMES, MEMBER_RENAMES } from './renames.js';
import { classSuggestions, findMember, GLOBAL_CLASSES, memberSuggestions, type ResolvedSymbol } from './resolve.js';

export interface ApiCheck {
  ref: string;
  line?: number;
  exists: boolean;
  kind?: SymbolKind | 'class';
  /** The real symbol, named by its declaring class (`Node.add_child`). */
  qname?: string;
  signature?: string;
  uri?: string;
  /** How the class of a variable was known. */
  via?: string;
  problem?: string;
  deprecated?: string;
  /** Closest real match, best first. */
  suggestions?: string[];
}

export interface ApiReport {
  ok: boolean;
  checked: number;
  problems: number;
  results: ApiCheck[];
}

/** `Class.member(a, b)`, `Class.member`, `Class`, `Class.new()` or `global(args)`. */
export function parseCallText(text: string): ApiRef {
  const trimmed = text.trim();
  const m = /^(?:([A-Za-z_@][\w]*)\s*\.\s*)?(@?[A-Za-z_][\w./-]*?)\s*(\(.*\))?\s*;?$/s.exec(trimmed);
  if (!m) return { text: trimmed };
  const args = m[3] === undefined ? undefined : countArgs(m[3], 0);
  if (m[1] === undefined)
    return /^[A-Z]/.test(m[2]) && args === undefined ? { text: trimmed, cls: m[2] } : { text: trimmed, member: m[2], args };
  if (m[2] === 'new') return { text: trimmed, cls: m[1] };
  return { text: trimmed, cls: m[1], member: m[2], args };
}

function exactClass(index: DocIndex, name: string): number | undefined {
  const id = index.classId(name);
  return id !== undefined && index.classes[id].name === name ? id : undefined;
}

function classProblem(index: DocIndex, name: string): string {
  const renamed = CLASS_RENAMES[name];
  const id = index.classId(name);
  if (id !== undefined) return `no class ${name}; class names are case-sensitive (${index.classes[id].name})`;
  return renamed ? `no class ${name}: it was renamed to ${renamed} in Godot 4` : `no class ${name} in this Godot reference`;
}

function describe(index: DocIndex, r: ResolvedSymbol): { signature?: string; deprecated?: string; range?: { min: number; max: number } } {
  const raw = index.rawClass(r.clsId);
  const by = <T extends { name: string }>(list: T[]) => list.find((x) => x.name === r.name);
  switch (r.kind) {
    case 'method':
    case 'annotation': {
      const m = by(r.kind === 'method' ? raw.methods : raw.annotations);
      return m
        ? { signature: r.kind === 'method' ? methodSignature(m) : annotationSignature(m), deprecated: m.deprecated, range: arity(m) }
        : {};
    }
    case 'property': {
      const p = raw.properties.find((x) => x.name === r.name && !x.overrides);
      return p ? { signature: propertySignature(p), deprecated: p.deprecated } : {};
    }
    case 'signal': {
      const s = by(raw.signals);
      return s ? { signature: signalSignature(s), deprecated: s.deprecated } : {};
    }
    case 'constant': {
      const c = by(raw.constants);
      return c ? { signature: constantSignature(c), deprecated: c.deprecated } : {};
    }
    case 'theme_item': {
      const t = by(raw.themeItems);
      return t ? { signature: themeItemSignature(t) } : {};
    }
    default:
      return { signature: `enum ${r.name}` };
  }
}

function checkMember(index: DocIndex, ref: ApiRef, base: ApiCheck, clsId: number | undefined): ApiCheck {
  const member = ref.member!;
  const scopes =
    clsId !== undefined ? [clsId] : GLOBAL_CLASSES.map((g) => exactClass(index, g)).filter((id): id is number => id !== undefined);
  let found: ResolvedSymbol | undefined;
  for (const scope of scopes) if ((found = findMember(index, scope, member))) break;
  if (!found) {
    const where = clsId !== undefined ? `${index.classes[clsId].name} (or its ancestors)` : 'the global scope';
    const renamed = clsId !== undefined ? MEMBER_RENAMES[`${index.classes[clsId].name}.${member}`] : undefined;
    const problem = renamed ? `${member} was renamed to ${renamed} in Godot 4` : `${where} has no ${member}`;
    const suggestions = memberSuggestions(index, clsId, member);
    // A bare `node2d` may be a class written in the wrong case.
    if (clsId === undefined && ref.args === undefined) suggestions.push(...classSuggestions(index, member).slice(0, 3));
    return { ...base, exists: false, problem, suggestions: [...new Set(suggestions)] };
  }
  const decl = index.classes[found.clsId].name;
  const info = describe(index, found);
  const out: ApiCheck = {
    ...base,
    exists: true,
    kind: found.kind,
    qname: `${decl}.${found.name}`,
    uri: symbolUri(decl, found.kind, found.name),
  };
  if (info.signature) out.signature = info.signature;
  if (info.deprecated !== undefined) out.deprecated = info.deprecated.replace(/\s+/g, ' ').trim() || 'deprecated';
  if (ref.args !== undefined) {
    if (found.kind !== 'method' && found.kind !== 'annotation') {
      const hint = found.kind === 'signal' ? ` (emit it with ${member}.emit(…))` : '';
      out.problem = `${decl}.${member} is a ${found.kind}, not a method${hint}`;
    } else if (info.range && (ref.args < info.range.min || ref.args > info.range.max)) {
      const takes =
        info.range.max === Infinity
          ? `at least ${info.range.min}`
          : info.range.min === info.range.max
            ? `${info.range.min}`
            : `${info.range.min} to ${info.range.max}`;
      out.problem = `${decl}.${member} takes ${takes} argument${takes === '1' ? '' : 's'}, ${ref.args} given: ${info.signature}`;
    }
  }
  return out;
}

/** Checks one reference; `base` is the class a script extends (for bare calls). */
export function checkRef(index: DocIndex, ref: ApiRef, scriptBase?: string): ApiCheck | undefined {
  const base: ApiCheck = { ref: ref.text, exists: false };
  if (ref.line !== undefined) base.line = ref.line;
  if (ref.via) base.via = ref.via;
  if (ref.cls === undefined && ref.member === undefined) return { ...base, problem: 'not a Class.member reference' };
  if (ref.cls !== undefined) {
    const clsId = exactClass(index, ref.cls);
    if (clsId === undefined) return { ...base, problem: classProblem(index, ref.cls), suggestions: classSuggestions(index, ref.cls) };
    if (ref.member === undefined) return { ...base, exists: true, kind: 'class', qname: ref.cls, uri: classUri(ref.cls) };
    return checkMember(index, ref, base, clsId);
  }
  // A bare call: the script's own class first, then the global scope.
  const own = scriptBase !== undefined ? exactClass(index, scriptBase) : undefined;
  if (own !== undefined && findMember(index, own, ref.member!)) return checkMember(index, ref, base, own);
  const global = checkMember(index, ref, base, undefined);
  // Without `extends` the snippet's own class is unknown: report only what is certain.
  if (!global.exists && scriptBase === undefined && ref.line !== undefined) return undefined;
  if (!global.exists && own !== undefined) {
    global.problem = `${scriptBase} (or its ancestors) and the global scope have no ${ref.member}`;
    global.suggestions = [...new Set([...memberSuggestions(index, own, ref.member!), ...(global.suggestions ?? [])])].slice(0, 8);
  }
  return global;
}

export function report(results: ApiCheck[]): ApiReport {
  const problems = results.filter((r) => !r.exists || r.problem).length;
  return { ok: problems === 0, checked: results.length, problems, results };
}

export function checkCalls(index: DocIndex, calls: string[]): ApiReport {
  return report(calls.map((c) => checkRef(index, parseCallText(c))!));
}

export function checkCode(index: DocIndex, code: string): ApiReport {
  const scan = scanGdscript(code);
  // A Godot 3 base class is checked as its Godot 4 successor (its own line reports the rename).
  const base = scan.base !== undefined && exactClass(index, scan.base) === undefined ? CLASS_RENAMES[scan.base] : scan.base;
  const { refs } = scan;
  const seen = new Set<string>();
  const results: ApiCheck[] = [];
  for (const ref of refs) {
    const key = `${ref.line}:${ref.text}:${ref.cls ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const checked = checkRef(index, ref, base);
    if (checked) results.push(checked);
  }
  return report(results);
}

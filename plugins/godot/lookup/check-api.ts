// godot_check_api: does each `Class.member(args)` exist, with what real signature, and what is the
// closest real thing when it does not (renames from Godot 3, similar names, the same name elsewhere).
import type { DocIndex } from '../search-index/doc-index.js';
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
} from '../signature.js';
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
  /** Set when there were more results than MAX_RESULTS: the fine ones were left out first. */
  truncated?: { results: number; shown: number };
}

/** At most this many results are returned (problems first kept); the counts still cover all. */
export const MAX_RESULTS = 1000;
/** Unknown names beyond this many get no did-you-mean list (each costs a scan of the names). */
const MAX_SUGGESTED = 300;
/** Work between two yields to the event loop, so other requests are answered meanwhile. */
const SLICE_MS = 8;

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

function checkMember(index: DocIndex, ref: ApiRef, base: ApiCheck, clsId: number | undefined, suggest = true): ApiCheck {
  const member = ref.member!;
  const scopes =
    clsId !== undefined ? [clsId] : GLOBAL_CLASSES.map((g) => exactClass(index, g)).filter((id): id is number => id !== undefined);
  let found: ResolvedSymbol | undefined;
  for (const scope of scopes) if ((found = findMember(index, scope, member))) break;
  if (!found) {
    const where = clsId !== undefined ? `${index.classes[clsId].name} (or its ancestors)` : 'the global scope';
    const renamed = clsId !== undefined ? MEMBER_RENAMES[`${index.classes[clsId].name}.${member}`] : undefined;
    const problem = renamed ? `${member} was renamed to ${renamed} in Godot 4` : `${where} has no ${member}`;
    if (!suggest) return { ...base, exists: false, problem };
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

interface CheckOptions {
  /** The reference comes from a scanned script (not from `calls`). */
  fromCode?: boolean;
  /** Compute did-you-mean lists for unknown names (default true). */
  suggest?: boolean;
}

/** Checks one reference; `scriptBase` is the class a script extends (for bare calls). */
function checkRef(index: DocIndex, ref: ApiRef, scriptBase?: string, options: CheckOptions = {}): ApiCheck | undefined {
  const suggest = options.suggest ?? true;
  const base: ApiCheck = { ref: ref.text, exists: false };
  if (ref.line !== undefined) base.line = ref.line;
  if (ref.via) base.via = ref.via;
  if (ref.cls === undefined && ref.member === undefined) return { ...base, problem: 'not a Class.member reference' };
  if (ref.cls !== undefined) {
    const clsId = exactClass(index, ref.cls);
    if (clsId === undefined) {
      const problem = classProblem(index, ref.cls);
      return suggest ? { ...base, problem, suggestions: classSuggestions(index, ref.cls) } : { ...base, problem };
    }
    if (ref.member === undefined) return { ...base, exists: true, kind: 'class', qname: ref.cls, uri: classUri(ref.cls) };
    return checkMember(index, ref, base, clsId, suggest);
  }
  // A bare call: the script's own class first, then the global scope.
  const own = scriptBase !== undefined ? exactClass(index, scriptBase) : undefined;
  if (own !== undefined && findMember(index, own, ref.member!)) return checkMember(index, ref, base, own, suggest);
  const global = checkMember(index, ref, base, undefined, suggest);
  // Without `extends` the snippet's own class is unknown: report only what is certain.
  if (!global.exists && scriptBase === undefined && (options.fromCode ?? ref.line !== undefined)) return undefined;
  if (!global.exists && own !== undefined) {
    global.problem = `${scriptBase} (or its ancestors) and the global scope have no ${ref.member}`;
    if (suggest)
      global.suggestions = [...new Set([...memberSuggestions(index, own, ref.member!), ...(global.suggestions ?? [])])].slice(0, 8);
  }
  return global;
}

export function report(results: ApiCheck[]): ApiReport {
  const problems = results.filter((r) => !r.exists || r.problem).length;
  const out: ApiReport = { ok: problems === 0, checked: results.length, problems, results };
  if (results.length > MAX_RESULTS) {
    let fine = MAX_RESULTS - Math.min(problems, MAX_RESULTS);
    out.results = results.filter((r) => (!r.exists || r.problem ? true : fine-- > 0)).slice(0, MAX_RESULTS);
    out.truncated = { results: results.length, shown: out.results.length };
  }
  return out;
}

export function checkCalls(index: DocIndex, calls: string[]): ApiReport {
  return report(callResults(index, calls));
}

export function callResults(index: DocIndex, calls: string[]): ApiCheck[] {
  return calls.map((c) => checkRef(index, parseCallText(c))!);
}

/** Yields to the event loop when the current slice of work is used up; throws when the call was cancelled. */
function slicer(signal?: AbortSignal): () => Promise<void> {
  let started = performance.now();
  return async () => {
    if (performance.now() - started < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    started = performance.now();
  };
}

/**
 * Scans a GDScript snippet and checks every engine reference in it. Each distinct reference is
 * resolved once; the work yields to the event loop every few milliseconds (other clients keep being
 * answered) and stops when `signal` aborts (timeout, cancellation).
 */
export async function checkCode(index: DocIndex, code: string, signal?: AbortSignal): Promise<ApiReport> {
  return report(await codeResults(index, code, signal));
}

/** checkCode's results, every one (the caller reports them, capped, together with others). */
export async function codeResults(index: DocIndex, code: string, signal?: AbortSignal): Promise<ApiCheck[]> {
  const scan = scanGdscript(code);
  const pause = slicer(signal);
  // The scan itself runs in one go (linear, tens of milliseconds for the largest code): let other requests in after it.
  await new Promise((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
  // A Godot 3 base class is checked as its Godot 4 successor (its own line reports the rename).
  const base = scan.base !== undefined && exactClass(index, scan.base) === undefined ? CLASS_RENAMES[scan.base] : scan.base;
  const seen = new Set<string>();
  const checked = new Map<string, ApiCheck | undefined>();
  let suggested = 0;
  const results: ApiCheck[] = [];
  for (const ref of scan.refs) {
    const key = `${ref.line}:${ref.text}:${ref.cls ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const what = `${ref.cls ?? ''}|${ref.member ?? ''}|${ref.args ?? ''}|${ref.text}|${ref.via ?? ''}`;
    let result = checked.get(what);
    if (!checked.has(what)) {
      result = checkRef(index, { ...ref, line: undefined }, base, { fromCode: true, suggest: suggested < MAX_SUGGESTED });
      if (result && !result.exists) suggested++;
      checked.set(what, result);
    }
    if (result) {
      const { ref: text, ...rest } = result;
      results.push(ref.line === undefined ? result : { ref: text, line: ref.line, ...rest });
    }
    await pause();
  }
  return results;
}

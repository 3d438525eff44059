// godot_search's `guesses`: API names the caller believes are involved, wrong ones included. Each is
// resolved the way godot_check_api resolves names — exactly (inherited members too), as a getter or
// setter of a property, as a Godot 3 name (data/godot3.tsv), as a near miss (a typo, another case,
// a missing 2D/3D, the start of a longer name), or as the same member on another class — and every
// symbol it resolves to gets a confidence. A guess whose class is right but whose member is not
// found still names its class, whose members then rank higher. How the candidates enter the
// ranking is search.ts's (fuseGuesses): never as a replacement for the words of the question.
import { closest, distance } from '../../../src/kit/index.js';
import type { DocIndex } from '../search-index/doc-index.js';
import { godot3Class, godot3ClassNames, godot3Named } from './godot3.js';
import { CLASS_RENAMES } from './renames.js';
import { findMember, GLOBAL_CLASSES } from './resolve.js';
import { fromGodot3 } from './version.js';

export const MAX_GUESSES = 10;
/** At most this many words of unknown member names join the query. */
const MAX_GUESS_WORDS = 8;

/** How a guess led to a symbol, strongest first. */
export type GuessMatch = 'exact' | 'accessor' | 'godot3' | 'near-miss' | 'other-class';

/** The confidence each way of resolving gives (times the class's own confidence for a near-miss class). */
const CONFIDENCE: Record<GuessMatch, number> = { exact: 1, accessor: 0.95, godot3: 0.9, 'near-miss': 0.6, 'other-class': 0.6 };

interface GuessCandidate {
  confidence: number;
  match: GuessMatch;
  /** The guess as written. */
  guess: string;
}

export interface ResolvedGuesses {
  /** Doc id → its best candidate. */
  symbols: Map<number, GuessCandidate>;
  /** Classes the guesses name (their members rank higher), with the confidence of the class. */
  classes: Map<number, number>;
  /**
   * The words of member names no symbol has (`Timer.single_shot`: single, shot): what the caller
   * meant, in its own words, searched for beside the question's (one_shot has "shot").
   */
  words: string[];
}

/** `Class.member`, `Class`, `member`, `@annotation`, with call arguments and `get_tree().`-style receivers dropped. */
function parse(text: string): { cls?: string; member?: string } | undefined {
  const cleaned = text
    .trim()
    .replace(/^`+|`+$/g, '')
    .replace(/\([^()]*\)/g, '')
    .replace(/\s+/g, '');
  const parts = cleaned.split('.').filter(Boolean);
  if (!parts.length || parts.some((p) => !/^@?[A-Za-z_][A-Za-z0-9_]*$/.test(p)) || cleaned.length > 200) return undefined;
  // `get_tree().change_scene` → change_scene; `Input.MOUSE_MODE_CAPTURED` → class and constant.
  const clsAt = parts.findIndex((p, i) => i < parts.length - 1 && /^@?[A-Z]/.test(p));
  if (parts.length === 1)
    return /^@?[A-Z][a-z]/.test(parts[0]) || /^@?[A-Z][A-Z0-9]*[a-z]/.test(parts[0]) ? { cls: parts[0] } : { member: parts[0] };
  if (clsAt < 0) return { member: parts[parts.length - 1] };
  return { cls: parts[clsAt], member: parts.slice(clsAt + 1).join('.') };
}

class Collector {
  readonly symbols = new Map<number, GuessCandidate>();
  readonly classes = new Map<number, number>();
  readonly words: string[] = [];
  constructor(private readonly guess: string) {}
  add(id: number | undefined, match: GuessMatch, scale = 1): void {
    if (id === undefined) return;
    const confidence = CONFIDENCE[match] * scale;
    const had = this.symbols.get(id);
    if (!had || had.confidence < confidence) this.symbols.set(id, { confidence, match, guess: this.guess });
  }
  addClass(clsId: number, confidence: number): void {
    this.classes.set(clsId, Math.max(this.classes.get(clsId) ?? 0, confidence));
  }
}

function exactClass(index: DocIndex, name: string): number | undefined {
  const id = index.classId(name);
  return id !== undefined && index.classes[id].name.toLowerCase() === name.toLowerCase() ? id : undefined;
}

/** The doc of a qualified Godot 4 name (`Class.member`, `Class`, a global). */
function docOf(index: DocIndex, qname: string): number | undefined {
  const dot = qname.indexOf('.');
  if (dot < 0) {
    const cid = exactClass(index, qname);
    return cid === undefined ? undefined : index.classDoc(cid);
  }
  const cid = exactClass(index, qname.slice(0, dot));
  if (cid === undefined) return undefined;
  return findMember(index, cid, qname.slice(dot + 1))?.docId;
}

/**
 * The property a getter or setter name stands for (`get_position`, `set_wait_time`, `is_emitting` →
 * position, wait_time, emitting), along the chain: Godot names a property's accessors this way, and
 * Godot 4 code reads the property itself.
 */
function accessorOf(index: DocIndex, clsId: number, name: string): number | undefined {
  const m = /^(?:get|set|is)_(.+)$/.exec(name);
  if (!m) return undefined;
  const found = findMember(index, clsId, m[1], 'property');
  return found?.docId;
}

/**
 * Near misses of a member name among a class chain's members: the same name without underscores or
 * case (`addChild`, `lookAt`), a name the guess is the start of (`load_threaded` →
 * load_threaded_request, `is_action_press` → is_action_pressed), or a typo (one edit in four
 * characters). A name that is only the start of the guess (`set` for set_interval) is not one.
 */
function nearMembers(index: DocIndex, clsId: number, member: string): number[] {
  const byName = new Map<string, number>();
  for (const cid of index.chain(clsId))
    for (const id of index.memberDocs(cid)) if (!byName.has(index.docs[id].name)) byName.set(index.docs[id].name, id);
  const flat = (s: string) => s.replace(/_/g, '').toLowerCase();
  const wanted = flat(member);
  const lower = member.toLowerCase();
  const same = [...byName.entries()].filter(([name]) => flat(name) === wanted).map(([, id]) => id);
  if (same.length) return same;
  const scored: Array<[number, number, number]> = [];
  const limit = Math.max(1, Math.floor(lower.length / 4));
  // `play_animation` on AnimationPlayer is play: the guess's last word only repeats what the class is.
  const classWords = new Set(
    index
      .chain(clsId)
      .flatMap((cid) => index.classes[cid].name.split(/(?=[A-Z])/))
      .map((w) => w.toLowerCase()),
  );
  for (const [name, id] of byName) {
    const n = name.toLowerCase();
    if (lower.length >= 4 && (n.startsWith(`${lower}_`) || (n.startsWith(lower) && lower.length * 2 >= n.length)))
      scored.push([id, 1, n.length]);
    else if (lower.startsWith(`${n}_`) && classWords.has(lower.slice(n.length + 1))) scored.push([id, 1, n.length]);
    else if (Math.abs(n.length - lower.length) <= limit) {
      const d = distance(lower, n);
      if (d <= limit) scored.push([id, 1 + d, n.length]);
    }
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[2] - b[2])
    .slice(0, 2)
    .map(([id]) => id);
}

/** Classes a class name nearly is: another case, a missing 2D/3D suffix, a typo. */
function nearClasses(index: DocIndex, name: string): number[] {
  const out = new Set<number>();
  for (const suffix of ['2D', '3D']) {
    const id = exactClass(index, `${name}${suffix}`);
    if (id !== undefined) out.add(id);
  }
  if (out.size) return [...out];
  for (const n of closest(name, index.classNames(), 2)) out.add(index.classId(n)!);
  return [...out];
}

function resolveMember(index: DocIndex, c: Collector, clsId: number, member: string, scale: number, asked?: string): void {
  const found = findMember(index, clsId, member);
  if (found?.docId !== undefined) {
    c.add(found.docId, 'exact', scale);
    return;
  }
  if (found?.kind === 'enum') {
    for (const id of index.enumValues(found.clsId, member) ?? []) c.add(id, 'exact', scale * 0.5);
    return;
  }
  const accessor = accessorOf(index, clsId, member);
  if (accessor !== undefined) {
    c.add(accessor, 'accessor', scale);
    return;
  }
  const g3 = asked === undefined ? undefined : fromGodot3(index, asked, member);
  if (g3?.godot4) {
    c.add(docOf(index, g3.godot4), 'godot3', scale);
    return;
  }
  // The right class with a wrong member: its members rank higher; its near misses are candidates,
  // and the member's words are searched for too.
  c.addClass(clsId, scale);
  c.words.push(...member.split(/_|(?<=[a-z])(?=[A-Z])/).filter((w) => w.length >= 3));
  const near = nearMembers(index, clsId, member);
  for (const id of near) c.add(id, 'near-miss', scale);
  // The same member on another class (`Node2D.move_and_slide` → CharacterBody2D's): a descendant of
  // the class guessed is the likeliest, a class sharing a parent with it (RigidBody2D, CharacterBody2D)
  // less, an unrelated one least — a guess of Node.listen is not about UDPServer.listen.
  const elsewhere = (index.byName.get(member.toLowerCase()) ?? []).filter((id) => index.docs[id].kind !== 'class');
  const related = (id: number) => {
    const chain = index.chain(index.docs[id].cls);
    if (chain.includes(clsId)) return 1;
    const parent = index.chain(clsId)[1];
    return parent !== undefined && chain.includes(parent) && !GENERIC_BASES.has(index.classes[parent].name) ? 0.75 : 0.5;
  };
  // Among as related ones, the most linked-to first (Sprite2D.texture before GPUParticles2D.texture).
  const ranked = elsewhere.map((id) => [id, related(id), index.docs[id].refs ?? 0] as const).sort((a, b) => b[1] - a[1] || b[2] - a[2]);
  for (const [id, r] of ranked.slice(0, 3)) c.add(id, 'other-class', scale * r);
}

/** Bases too general to say two classes are related. */
const GENERIC_BASES = new Set(['Object', 'RefCounted', 'Node', 'Resource']);

function resolveOne(index: DocIndex, text: string): Collector {
  const c = new Collector(text);
  const parsed = parse(text);
  if (!parsed) return c;
  let { cls, member } = parsed;
  // An all-capitals class (AABB, JSON, OS) reads like a constant.
  if (cls === undefined && index.classId(member!) !== undefined && index.classes[index.classId(member!)!].name === member)
    [cls, member] = [member, undefined];
  if (cls === undefined) {
    // A bare name: a global (lerp, @export), a Godot 3 global (rand_range), or a member somewhere.
    for (const g of GLOBAL_CLASSES) {
      const gid = exactClass(index, g);
      const hit = gid === undefined ? undefined : findMember(index, gid, member!);
      if (hit?.docId !== undefined) {
        c.add(hit.docId, 'exact');
        return c;
      }
    }
    const g3 = fromGodot3(index, undefined, member);
    if (g3?.godot4) {
      c.add(docOf(index, g3.godot4), 'godot3');
      return c;
    }
    // A Godot 3 member named without its class (PAUSE_MODE_PROCESS, get_network_unique_id).
    const rows = godot3Named(member!).filter((r) => r.godot4);
    for (const r of rows.slice(0, 3)) c.add(docOf(index, r.godot4!), 'godot3', rows.length > 1 ? 0.8 : 1);
    if (rows.length) return c;
    const named = (index.byName.get(member!.toLowerCase()) ?? []).filter((id) => index.docs[id].kind !== 'class');
    for (const id of named.slice(0, 3)) c.add(id, 'other-class', named.length > 1 ? 0.8 : 1);
    if (!named.length) {
      const near = closest(
        member!,
        index.namesStartingWith(member!.slice(0, 2).toLowerCase(), 400).map((id) => index.docs[id].name),
        2,
      );
      for (const name of near) for (const id of (index.byName.get(name.toLowerCase()) ?? []).slice(0, 2)) c.add(id, 'near-miss');
    }
    return c;
  }
  const clsId = exactClass(index, cls);
  if (clsId !== undefined) {
    if (member === undefined) c.add(index.classDoc(clsId), 'exact');
    else resolveMember(index, c, clsId, member, 1, cls);
    return c;
  }
  // A Godot 3 class (KinematicBody2D), or one of its members.
  const g3 = fromGodot3(index, cls, member);
  if (g3?.godot4) {
    c.add(docOf(index, g3.godot4), 'godot3');
    const successor = godot3Class(cls)?.successor ?? CLASS_RENAMES[cls];
    const sid = successor === undefined ? undefined : exactClass(index, successor);
    if (sid !== undefined) c.addClass(sid, CONFIDENCE.godot3);
    return c;
  }
  // A near-miss class (CharacterBody → CharacterBody2D, CharacterBody3D), then the member on it.
  const near = nearClasses(index, cls);
  const g3near = near.length ? [] : closest(cls, godot3ClassNames(), 1);
  for (const name of g3near) {
    const n = fromGodot3(index, name, member);
    if (n?.godot4) c.add(docOf(index, n.godot4), 'godot3', CONFIDENCE['near-miss']);
  }
  for (const id of near) {
    const scale = CONFIDENCE['near-miss'] / near.length ** 0.5;
    if (member === undefined) c.add(index.classDoc(id), 'near-miss', scale / CONFIDENCE['near-miss']);
    else resolveMember(index, c, id, member, scale);
  }
  return c;
}

/** Resolves every guess (at most MAX_GUESSES); a symbol several guesses reach keeps its best confidence. */
export function resolveGuesses(index: DocIndex, guesses: readonly string[]): ResolvedGuesses {
  const symbols = new Map<number, GuessCandidate>();
  const classes = new Map<number, number>();
  const words = new Set<string>();
  for (const guess of guesses.slice(0, MAX_GUESSES)) {
    const c = resolveOne(index, guess);
    for (const [id, cand] of c.symbols) if ((symbols.get(id)?.confidence ?? 0) < cand.confidence) symbols.set(id, cand);
    for (const [id, conf] of c.classes) classes.set(id, Math.max(classes.get(id) ?? 0, conf));
    for (const w of c.words) words.add(w.toLowerCase());
  }
  return { symbols, classes, words: [...words].slice(0, MAX_GUESS_WORDS) };
}

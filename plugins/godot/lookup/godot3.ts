// Godot 3 names → what Godot 4 calls them: data/godot3.tsv (scripts/godot3-renames.js, from the 3.2
// and 4.5 references and the rename tables of Godot's own project converter; see data/SOURCE.md).
// Every Godot 3 class is there with its successor and its Godot 3 parent, and every Godot 3 member
// Godot 4 renamed, moved, removed or changed, with its Godot 3 signature; a member the table does
// not list kept its name (on the class's successor). Read on first use: most sessions never ask.
import { readDataFile } from '../data-files.js';

export type Godot3Change = 'renamed' | 'moved' | 'removed' | 'changed';

export interface Godot3Class {
  name: string;
  /** The Godot 4 class (absent: removed). */
  successor?: string;
  /** The class's parent in Godot 3 (where its inherited members are declared). */
  parent?: string;
}

export interface Godot3Member {
  /** `Class.member` as Godot 3 declares it. */
  godot3: string;
  kind: 'method' | 'property' | 'signal' | 'constant';
  /** Its Godot 3 signature. */
  signature: string;
  change: Godot3Change;
  /** `Class.member` (or `Class`) in Godot 4; absent when removed. */
  godot4?: string;
}

interface Table {
  classes: Map<string, Godot3Class>;
  members: Map<string, Godot3Member>;
  /** Member name → its rows in every class (`PAUSE_MODE_PROCESS` without its class). */
  byName: Map<string, Godot3Member[]>;
}

let table: Table | undefined;

function load(): Table {
  const classes = new Map<string, Godot3Class>();
  const members = new Map<string, Godot3Member>();
  const byName = new Map<string, Godot3Member[]>();
  for (const line of readDataFile('godot3.tsv').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [kind, godot3, godot4, how, extra] = line.split('\t');
    if (kind === 'class') {
      const entry: Godot3Class = { name: godot3 };
      if (godot4) entry.successor = godot4;
      if (extra) entry.parent = extra;
      classes.set(godot3, entry);
    } else {
      const entry: Godot3Member = { godot3, kind: kind as Godot3Member['kind'], signature: extra ?? '', change: how as Godot3Change };
      if (godot4) entry.godot4 = godot4;
      members.set(godot3, entry);
      const name = godot3.slice(godot3.indexOf('.') + 1);
      byName.set(name, [...(byName.get(name) ?? []), entry]);
    }
  }
  return { classes, members, byName };
}

function current(): Table {
  return (table ??= load());
}

/** A class Godot 3 had (whatever Godot 4 made of it), or undefined. */
export function godot3Class(name: string): Godot3Class | undefined {
  return current().classes.get(name);
}

/** The Godot 3 classes, for near-miss matching. */
export function godot3ClassNames(): Iterable<string> {
  return current().classes.keys();
}

/** Godot 3's class chain, the class first. */
function godot3Chain(name: string): string[] {
  const out: string[] = [];
  for (let c = godot3Class(name); c && out.length < 32; c = c.parent ? godot3Class(c.parent) : undefined) out.push(c.name);
  return out;
}

/**
 * What Godot 4 made of `Class.member` as Godot 3 wrote it: the member's own row, found on its Godot 3
 * declaring class (`KinematicBody2D.set_collision_layer_bit` is CollisionObject2D's); undefined when
 * Godot 3 had no such member or the table lists no change (it kept its name).
 */
export function godot3Member(cls: string, member: string): Godot3Member | undefined {
  const members = current().members;
  for (const c of godot3Chain(cls)) {
    const hit = members.get(`${c}.${member}`);
    if (hit) return hit;
  }
  if (cls === '@GlobalScope' || cls === '@GDScript') return members.get(`${cls === '@GDScript' ? '@GlobalScope' : '@GDScript'}.${member}`);
  return undefined;
}

/** Every Godot 3 member of this name that Godot 4 changed, whatever its class. */
export function godot3Named(member: string): Godot3Member[] {
  return current().byName.get(member) ?? [];
}

/** A bare Godot 3 global (`rand_range`, `deg2rad`, `to_json`): @GDScript's or @GlobalScope's. */
export function godot3Global(member: string): Godot3Member | undefined {
  return godot3Member('@GDScript', member) ?? godot3Member('@GlobalScope', member);
}

/** One sentence saying what happened to a Godot 3 member (or to its class, `via`). */
export function changeText(m: Godot3Member, asked: string): string {
  switch (m.change) {
    case 'renamed':
      return `${asked} is Godot 3 API: Godot 4 renamed it ${m.godot4} (Godot 3: ${m.signature}).`;
    case 'moved':
      return `${asked} is Godot 3 API: in Godot 4 it is ${m.godot4} (Godot 3: ${m.signature}).`;
    case 'changed':
      return `${asked} changed in Godot 4: its arguments differ (Godot 3: ${m.signature}); the Godot 4 signature is below.`;
    case 'removed':
      return `${asked} is Godot 3 API that Godot 4 removed (Godot 3: ${m.signature}).`;
  }
}

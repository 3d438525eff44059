// Version-correct answers: what the reference marks deprecated or experimental (and what replaces
// it), and what Godot 4 made of a Godot 3 name (data/godot3.tsv, lookup/godot3.ts).
import type { DocIndex } from '../search-index/doc-index.js';
import { CLASS_RENAMES } from './renames.js';
import { changeText, godot3Class, godot3Global, godot3Member, type Godot3Change } from './godot3.js';
import { findMember, GLOBAL_CLASSES } from './resolve.js';

/** What a result or page says about a Godot 3 name it was asked for. */
export interface Godot3Note {
  /** The name as asked (`KinematicBody2D.move_and_slide`). */
  name: string;
  change: Godot3Change | 'class renamed';
  /** The Godot 3 signature, when the member changed. */
  signature?: string;
  /** What Godot 4 calls it (absent when removed). */
  godot4?: string;
  /** One sentence saying what changed. */
  note: string;
}

/** The Godot 4 name a Godot 3 name stands for, with what changed; undefined when it is not a Godot 3 name. */
export function fromGodot3(index: DocIndex, cls: string | undefined, member: string | undefined): Godot3Note | undefined {
  const exact = (name: string) => {
    const id = index.classId(name);
    return id !== undefined && index.classes[id].name === name ? id : undefined;
  };
  if (member === undefined) {
    if (cls === undefined || exact(cls) !== undefined) return undefined;
    const c = godot3Class(cls);
    const successor = c?.successor ?? CLASS_RENAMES[cls];
    if (!c && !successor) return undefined;
    if (!successor || exact(successor) === undefined)
      return { name: cls, change: 'removed', note: `${cls} is a Godot 3 class that Godot 4 removed.` };
    return { name: cls, change: 'renamed', godot4: successor, note: `${cls} is the Godot 3 name of ${successor}.` };
  }
  const asked = cls === undefined ? member : `${cls}.${member}`;
  const row = cls === undefined ? godot3Global(member) : godot3Member(cls, member);
  if (row) {
    const note: Godot3Note = { name: asked, change: row.change, signature: row.signature, note: changeText(row, asked) };
    if (row.godot4) note.godot4 = row.godot4;
    return note;
  }
  if (cls === undefined) return undefined;
  // A member that kept its name on a renamed class (KinematicBody2D.is_on_floor → CharacterBody2D.is_on_floor).
  const successor = exact(cls) === undefined ? (godot3Class(cls)?.successor ?? CLASS_RENAMES[cls]) : undefined;
  const sid = successor === undefined ? undefined : exact(successor);
  if (sid === undefined) return undefined;
  const found = findMember(index, sid, member);
  if (!found) return undefined;
  const godot4 = `${index.classes[found.clsId].name}.${found.name}`;
  return {
    name: asked,
    change: 'class renamed',
    godot4,
    note: `${cls} is the Godot 3 name of ${successor}: ${asked} is ${godot4} in Godot 4.`,
  };
}

/** For a symbol that exists in Godot 4 under a name Godot 3 also used, what Godot 3 had differently (its arguments). */
export function changedSince3(index: DocIndex, clsId: number, member: string): Godot3Note | undefined {
  const cls = index.classes[clsId].name;
  const row = godot3Class(cls) ? godot3Member(cls, member) : GLOBAL_CLASSES.includes(cls) ? godot3Global(member) : undefined;
  if (row?.change !== 'changed') return undefined;
  return {
    name: `${cls}.${member}`,
    change: 'changed',
    signature: row.signature,
    godot4: row.godot4,
    note: changeText(row, `${cls}.${member}`),
  };
}

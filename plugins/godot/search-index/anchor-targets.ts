// Where each anchor goes: `Class` and `Class.member` name their symbol (a member found on an ancestor
// counts); `?member` (a call in a code sample) is a member of the describing class's own chain, or a
// name exactly one class has. The text becomes the target's `anchor` field, up to a cap, so the
// symbols the whole reference points at (Node, Object.connect) do not grow without bound.
import type { ClassEntry, DocEntry } from './entries.js';

const ANCHOR_CHARS = 2000;

/** Each document's anchor text (absent for most), from the anchors each class's descriptions hold. */
export function resolveAnchors(
  classes: ClassEntry[],
  docs: DocEntry[],
  anchorsByClass: Array<Array<[string, string]>>,
): Map<number, string> {
  const texts = new Map<number, string>();
  const classIds = new Map(classes.map((c, i) => [c.name, i]));
  const classDoc = new Map<number, number>();
  const members = new Map<string, number>();
  const byName = new Map<string, number[]>();
  docs.forEach((d, id) => {
    if (d.kind === 'class') {
      classDoc.set(d.cls, id);
      return;
    }
    const key = `${d.cls}.${d.name}`;
    if (!members.has(key)) members.set(key, id);
    const list = byName.get(d.name);
    if (list) list.push(id);
    else byName.set(d.name, [id]);
  });
  const chain = (cls: number): number[] => {
    const out = [cls];
    for (let parent = classes[cls].inherits; parent !== undefined;) {
      const id = classIds.get(parent);
      if (id === undefined || out.includes(id)) break;
      out.push(id);
      parent = classes[id].inherits;
    }
    return out;
  };
  const inChain = (cls: number, name: string) => {
    for (const c of chain(cls)) {
      const id = members.get(`${c}.${name}`);
      if (id !== undefined) return id;
    }
    return undefined;
  };
  const resolve = (from: number, target: string): number | undefined => {
    if (target.startsWith('?')) {
      const name = target.slice(1);
      const own = inChain(from, name);
      if (own !== undefined) return own;
      const named = byName.get(name);
      return named && named.length === 1 ? named[0] : undefined;
    }
    const dot = target.indexOf('.');
    if (dot < 0) {
      const cls = classIds.get(target);
      return cls === undefined ? undefined : classDoc.get(cls);
    }
    const cls = classIds.get(target.slice(0, dot));
    return cls === undefined ? undefined : inChain(cls, target.slice(dot + 1));
  };
  anchorsByClass.forEach((anchors, from) => {
    for (const [target, text] of anchors) {
      const id = resolve(from, target);
      if (id === undefined) continue;
      const before = texts.get(id);
      if (before !== undefined && before.length >= ANCHOR_CHARS) continue;
      texts.set(id, before ? `${before} ${text}` : text);
    }
  });
  return texts;
}

// godot_get_class / godot_get_symbol of a Godot 3 name: the Godot 4 successor, with what changed.
// A name Godot 4 has is answered as it is; a Godot 3 name Godot 4 renamed or moved is answered with
// its successor; one Godot 4 removed is a NOT_FOUND that says so (with the usual suggestions).
import { NotFoundError } from '../../../src/backend/index.js';
import type { DocIndex } from '../search-index/doc-index.js';
import { splitQualified } from './names.js';
import { resolveClass, resolveSymbol, type ResolvedSymbol } from './resolve.js';
import { fromGodot3, type Godot3Note } from './version.js';

function withGodot3Note(error: unknown, note: Godot3Note | undefined): never {
  if (note && error instanceof NotFoundError) {
    throw new NotFoundError(`${note.note} ${error.message}`, { data: { ...(error.data as object), godot3: note } });
  }
  throw error;
}

export function classOrSuccessor(index: DocIndex, name: string): { clsId: number; godot3?: Godot3Note } {
  try {
    return { clsId: resolveClass(index, name) };
  } catch (error) {
    const note = fromGodot3(index, name.trim(), undefined);
    if (note?.godot4 !== undefined && index.classId(note.godot4) !== undefined)
      return { clsId: resolveClass(index, note.godot4), godot3: note };
    return withGodot3Note(error, note);
  }
}

export function symbolOrSuccessor(index: DocIndex, qname: string): { symbol: ResolvedSymbol; godot3?: Godot3Note } {
  try {
    return { symbol: resolveSymbol(index, qname) };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const { cls, member } = splitQualified(qname);
    const note = fromGodot3(index, cls, member);
    const target = note?.godot4;
    if (target !== undefined) {
      try {
        return { symbol: resolveSymbol(index, target), godot3: note };
      } catch {
        // A member that became a class (funcref → Callable) has no symbol page: say so below.
      }
    }
    return withGodot3Note(error, note);
  }
}

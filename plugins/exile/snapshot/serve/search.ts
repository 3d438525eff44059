// explore search:<glob> over the recorded types: `*` any run of characters, `?` one character,
// case-insensitive, matched against full and short type names and against member names. The glob
// is matched without a regex (glob.ts), and every name checked ticks the call's budget.
import type { ExploreArgs } from '../../schemas.js';
import type { Budget } from './eval/budget.js';
import { compileGlob } from './glob.js';
import { shortType } from '../model.js';
import type { Snapshot } from './snapshot.js';
import { ToolError } from '../../../../src/backend/index.js';

export function searchTypes(snapshot: Snapshot, pattern: string, args: ExploreArgs, budget: Budget) {
  if (pattern === '') throw new ToolError('search: needs a pattern, e.g. search:*Monster* or search:CurHP', { code: 'INVALID_TARGET' });
  const matches = compileGlob(pattern);
  const test = (name: string) => {
    budget.tick();
    return matches(name);
  };
  const types: Array<{ type: string; kind: string }> = [];
  const members: Array<{ type: string; name: string; kind: string; memberType: string; access: string }> = [];
  for (const [full, info] of [...snapshot.types].sort(([a], [b]) => a.localeCompare(b))) {
    if (test(full) || test(shortType(full))) types.push({ type: full, kind: info.kind });
    for (const m of info.members ?? []) {
      if ((args.includePrivate || m.access === 'public') && test(m.name))
        members.push({ type: full, name: m.name, kind: m.kind, memberType: m.type, access: m.access });
    }
  }
  const truncated = types.length > args.limit || members.length > args.limit;
  return { pattern, types: types.slice(0, args.limit), members: members.slice(0, args.limit), ...(truncated ? { truncated: true } : {}) };
}

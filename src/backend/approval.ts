// What a backend does when a feature needs a setting that is waiting for the user's approval (see
// BackendContext.withheld): it stops there with an error that says which settings and what to run.
import { UnavailableError } from './errors.js';
import type { BackendContext, WithheldSetting } from './types.js';

function withheldOf(ctx: Pick<BackendContext, 'withheld'>, keys: readonly string[]): WithheldSetting[] {
  return (ctx.withheld ?? []).filter((w) => keys.includes(w.key));
}

/**
 * What keeps a feature that needs `keys` (section key paths: `pobPath`, `lua.cmd`) from working
 * when any of them was withheld, for a health report; undefined when none was.
 */
export function approvalProblem(ctx: Pick<BackendContext, 'withheld'>, keys: readonly string[]): string | undefined {
  const found = withheldOf(ctx, keys);
  return found.length > 0 ? withheldText(found) : undefined;
}

/**
 * Throws an UnavailableError when any of `keys` was withheld, naming them, the file and the
 * `mcphost trust` command (`what` says which feature stops: "PoB cannot start").
 */
export function requireApproved(ctx: Pick<BackendContext, 'withheld'>, keys: readonly string[], what?: string): void {
  const found = withheldOf(ctx, keys);
  if (found.length === 0) return;
  throw new UnavailableError(`${what ? `${what}: ` : ''}${withheldText(found)}`, {
    data: { notApproved: found.map((w) => w.path), file: found[0].file },
  });
}

/**
 * `plugins.pob.cmd and plugins.pob.pobPath in F wait for your approval of F: run `mcphost trust F``,
 * one sentence per file.
 */
export function withheldText(found: readonly WithheldSetting[]): string {
  const byFile = new Map<string, WithheldSetting[]>();
  for (const w of found) byFile.set(w.file, [...(byFile.get(w.file) ?? []), w]);
  return [...byFile.entries()]
    .map(([file, list]) => {
      const names = list.map((w) => w.path);
      const joined = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
      const changed = list.some((w) => w.reason === 'changed') ? ' (it changed since you approved it)' : '';
      return `${joined} in ${file} ${names.length === 1 ? 'waits' : 'wait'} for your approval of that file: run \`mcphost trust ${file}\`${changed}`;
    })
    .join('; ');
}

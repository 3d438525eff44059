// Built-in backends live in `plugins/<name>/index.ts` (compiled to dist/plugins). They are found by
// listing that folder, never by importing them all, so start-up does not grow with their number.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILTIN_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../plugins');

/** The compiled entry, or the TypeScript source when the host itself runs from source (in-process tests). */
function entryIn(folder: string): string | undefined {
  return ['index.js', 'index.ts'].map((f) => path.join(folder, f)).find((f) => existsSync(f));
}

/** The plugin folders with an entry; a folder starting with `_` (plugins/_template) is not a plugin. */
export function builtinNames(root = BUILTIN_ROOT): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_') && entryIn(path.join(root, d.name)) !== undefined)
    .map((d) => d.name)
    .sort();
}

export function builtinEntry(name: string, root = BUILTIN_ROOT): string | undefined {
  return /^[a-z0-9-]+$/.test(name) ? entryIn(path.join(root, name)) : undefined;
}

// The plugin's data files (data/: the fitted ranking numbers, the vocabulary, the manual anchors):
// beside this file in the sources, or plugins/godot/data from dist/ (package.json ships them).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function dataDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'data');
  if (existsSync(path.join(beside, 'ranking.json'))) return beside;
  return path.resolve(here, '../../../plugins/godot/data');
}

export function dataFile(name: string): string {
  return path.join(dataDir(), name);
}

export function readDataFile(name: string): string {
  return readFileSync(dataFile(name), 'utf8');
}

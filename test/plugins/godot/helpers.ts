// Shared pieces for the godot plugin's tests: fixture folders and an index built from them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, SHARED_DATA } from '../../helpers/paths.js';
import { discover } from '../../../plugins/godot/corpus/discover.ts';
import { buildIndex } from '../../../plugins/godot/search-index/build.ts';
import { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { manualFromFile } from '../../../plugins/godot/manual/source.ts';

export const DOC4 = path.join(FIXTURES, 'godot/doc4');
export const DOC3 = path.join(FIXTURES, 'godot/doc3');
export const BROKEN = path.join(FIXTURES, 'godot/broken');
export const SHARED4 = path.join(SHARED_DATA, 'godot-docs/doc');
export const SHARED3 = path.join(SHARED_DATA, 'godot3-docs/doc');
export const HAVE_SHARED = existsSync(path.join(SHARED4, 'classes/Node.xml'));

/** An index of `dir` with the manual shipped with the plugin, as production builds it. */
export async function fixtureIndex(dir: string, warnings: string[] = []): Promise<DocIndex> {
  const corpus = discover(dir);
  return new DocIndex(await buildIndex(corpus, { workers: 0, warn: (m) => warnings.push(m), manual: manualFromFile() }), corpus.root);
}

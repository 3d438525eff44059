// No module of the host or of a plugin imports itself back through others (issue 37 found the godot
// lookup's identifiers → query → ranking → identifiers). Type-only imports count: a circle of types
// is the same knot for whoever reads the code. madge resolves the imports as tsc does.
import madge from 'madge';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

describe('import graph', () => {
  it('has no circle in src/ or plugins/', { timeout: 120_000 }, async () => {
    const graph = await madge(
      ['src', 'plugins'].map((dir) => path.join(REPO, dir)),
      {
        baseDir: REPO,
        fileExtensions: ['ts'],
        tsConfig: path.join(REPO, 'tsconfig.json'),
        // The views are bundled for the browser on their own (tsconfig.browser.json).
        excludeRegExp: [/\/ui\//],
        detectiveOptions: { ts: { skipTypeImports: false } },
      },
    );
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(300);
    expect(graph.circular()).toEqual([]);
  });
});

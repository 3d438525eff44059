// The README's "Layout" block names every folder of src/ and nothing that is not there.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

describe('README Layout', () => {
  it('agrees with the folders of src/', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Layout'));
    const block = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
    const named = [...block.matchAll(/^src\/([a-z-]+)\//gm)].map((m) => m[1]).sort();
    const folders = readdirSync(path.join(REPO, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(named).toEqual(folders);
  });
});

// The README's "Layout" block names every folder of src/ and nothing that is not there, and each plugin
// folder it names exists with the subfolders its line names.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docSection } from '../helpers/docs.js';
import { REPO } from '../helpers/paths.js';

describe('README Layout', () => {
  it('agrees with the folders of src/', () => {
    const section = docSection('## Layout');
    const block = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
    const named = [...block.matchAll(/^src\/([a-z-]+)\//gm)].map((m) => m[1]).sort();
    const folders = readdirSync(path.join(REPO, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(named).toEqual(folders);
  });

  it('names plugin folders, and their subfolders, that exist', () => {
    const section = docSection('## Layout');
    const block = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
    const lines = [...block.matchAll(/^(plugins\/[a-z_/]+\/) (.*)$/gm)];
    expect(lines.length).toBeGreaterThan(0);
    const under = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) => [d.name, ...under(path.join(dir, d.name))]);
    for (const [, folder, text] of lines) {
      expect(existsSync(path.join(REPO, folder)), folder).toBe(true);
      const subfolders = new Set(under(path.join(REPO, folder)));
      for (const [, sub] of text.matchAll(/\b([a-z-]+)\/(?=[\s,)])/g)) expect(subfolders.has(sub), `${folder}${sub}/`).toBe(true);
    }
  });
});

// The user documentation as the tests read it: the README (the front door) and the reference and
// internals it links to, in reading order. A section is found by its heading in whichever file holds it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './paths.js';

export const DOC_FILES = ['README.md', 'docs/reference.md', 'docs/internals.md'] as const;
export type DocFile = (typeof DOC_FILES)[number];

export function readDoc(file: DocFile): string {
  return readFileSync(path.join(REPO, file), 'utf8');
}

/**
 * The `## name` (or `### name`) section: from its heading to the next heading of its level or above,
 * outside code blocks (a `# comment` in a shell block is no heading).
 */
export function docSection(heading: string): string {
  const level = (/^#+/.exec(heading)?.[0] ?? '##').length;
  const title = heading.replace(/^#+\s*/, '');
  for (const file of DOC_FILES) {
    const lines = readDoc(file).split('\n');
    let fenced = false;
    let start = -1;
    for (const [i, line] of lines.entries()) {
      if (line.startsWith('```')) fenced = !fenced;
      if (fenced) continue;
      const m = /^(#+) (.*)$/.exec(line);
      if (!m) continue;
      if (start === -1 && m[1].length === level && m[2] === title) start = i;
      else if (start !== -1 && m[1].length <= level) return lines.slice(start, i).join('\n');
    }
    if (start !== -1) return lines.slice(start).join('\n');
  }
  throw new Error(`no section "${'#'.repeat(level)} ${title}" in ${DOC_FILES.join(', ')}`);
}

/** docs/reference.md's "Tool error codes" rows: code → its exit code and meaning, as written. */
export function documentedCodes(): Map<string, { exit: string; means: string }> {
  const rows = [...docSection('#### Tool error codes').matchAll(/^\| `([A-Z_0-9]+)` \| (\d) \| (.*) \|$/gm)];
  return new Map(rows.map(([, code, exit, means]) => [code!, { exit: exit!, means: means! }]));
}

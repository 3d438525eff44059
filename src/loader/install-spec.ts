// What `mcphost plugins:install` was given: a package on npm, or a folder or tarball on this disk.
// npm decides the same way (npm-package-arg 11, lib/npa.js: `isFilespec`, `isFilename`): a spec
// that starts with `.`, `~/`, `/` (or a drive letter) or `file:`, or that names a .tgz/.tar.gz/.tar,
// is local. oclif's installer sends every spec with a slash to GitHub instead, so a local one is
// rewritten here as an absolute `file:` URL (npm runs in mcphost's data folder, where a relative
// path would point elsewhere).
import { existsSync } from 'node:fs';
import path from 'node:path';

const FILESPEC = /^(?:[.]|~[/\\]|[/\\]|[a-zA-Z]:)/;
const TARBALL = /[.](?:tgz|tar\.gz|tar)$/i;

export type InstallSpec = { kind: 'local'; path: string; url: string } | { kind: 'other' };

export function installSpec(input: string, cwd: string, home: string): InstallSpec {
  let text = input;
  if (/^file:/i.test(text)) text = text.slice('file:'.length);
  else if (!FILESPEC.test(text) && !(TARBALL.test(text) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text))) return { kind: 'other' };
  const expanded = text.startsWith('~/') || text.startsWith('~\\') ? path.join(home, text.slice(2)) : text;
  const absolute = path.resolve(cwd, expanded);
  return { kind: 'local', path: absolute, url: `file:${absolute}` };
}

/** Why a local spec cannot be installed (it does not exist), or undefined. */
export function missingLocal(spec: InstallSpec): string | undefined {
  return spec.kind === 'local' && !existsSync(spec.path) ? `${spec.path} does not exist` : undefined;
}

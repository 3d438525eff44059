// What mcphost adds to oclif's `plugins:install`, `plugins:link` and `plugins:uninstall` (the
// commands are oclif's, extended in src/commands/plugins/): local folders and tarballs installed as
// npm would take them, the backend packages a run added (to be checked as `serve` would load them),
// and a backend's name (`hello`) accepted where oclif wants the package's (mcphost-plugin-hello).
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closest } from '../kit/closest.js';
import { installSpec, missingLocal } from '../loader/install-spec.js';
import { installedPackages, userPackagesIn, type InstalledPackage } from '../loader/installed.js';

/** What `plugins:install` was given: oclif's to resolve (npm), a local package as a `file:` URL, or a local path that is not there. */
export type InstallSource = { kind: 'npm' } | { kind: 'local'; url: string } | { kind: 'missing'; message: string };

export function installSource(input: string, cwd = process.cwd(), home = os.homedir()): InstallSource {
  const spec = installSpec(input, cwd, home);
  if (spec.kind === 'other') return { kind: 'npm' };
  const missing = missingLocal(spec);
  return missing ? { kind: 'missing', message: missing } : { kind: 'local', url: spec.url };
}

/**
 * Call before an install: the returned function then says which backend packages in `dataDir` the
 * install wrote. npm extracts a package anew (its package.json gets a new ctime; packed files carry
 * a fixed mtime), whether the version changed or not.
 */
export function installedSince(dataDir: string): () => InstalledPackage[] {
  const stamp = (root: string) => statSync(path.join(root, 'package.json'), { throwIfNoEntry: false })?.ctimeMs;
  const before = new Map(userPackagesIn(dataDir).map((p) => [p.root, stamp(p.root)]));
  return () => installedPackages(userPackagesIn(dataDir)).filter((p) => before.get(p.root) !== stamp(p.root));
}

/** The package linked at `root`: its name, and its backend when its package.json names one (undefined: no package.json to read). */
export function linkedPackage(root: string): { name: string; backend?: InstalledPackage } | undefined {
  let pjson: Record<string, unknown>;
  try {
    pjson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const name = String(pjson.name ?? path.basename(root));
  const [backend] = installedPackages([{ name, version: String(pjson.version ?? '?'), root, type: 'link', pjson }]);
  return { name, backend };
}

/**
 * One argument of `plugins:uninstall` as oclif should get it: a flag, a package or linked folder as
 * it is, a backend name as its package's; a name that matches nothing is an error naming what is installed.
 */
export function uninstallArgument(
  arg: string,
  packages: readonly string[],
  backends: readonly InstalledPackage[],
): { arg: string } | { error: string } {
  if (arg.startsWith('-') || packages.includes(arg)) return { arg };
  const byBackend = backends.find((b) => b.backendName === arg);
  if (byBackend) return { arg: byBackend.packageName };
  if (arg === '.' || arg.includes('/') || arg.includes('\\')) return { arg }; // a linked folder
  const [guess] = closest(arg, [...backends.map((b) => b.backendName), ...packages], 1);
  const listed = backends.map((b) => `${b.backendName} (${b.packageName})`).join(', ') || 'none';
  return { error: `${arg} is not installed.${guess ? ` Did you mean ${guess}?` : ''} Installed backends: ${listed}` };
}

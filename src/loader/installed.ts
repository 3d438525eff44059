// Backends installed as npm packages with `mcphost plugins:install` (or linked with `plugins:link`).
// Such a package is an oclif plugin whose package.json names its backend entry:
//   "mcphost": { "backend": "./dist/backend.js", "name": "foo" }   (name defaults to the package
//   name without its `mcphost-plugin-` prefix)
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface InstalledPackage {
  /** The backend name users type in `--plugins`. */
  backendName: string;
  packageName: string;
  version: string;
  root: string;
  /** Absolute path of the backend module. */
  entry: string;
  type: string;
}

/** The subset of an oclif plugin this module reads (so tests can pass plain objects). */
export interface OclifPluginLike {
  name: string;
  version: string;
  root: string;
  type: string;
  pjson: { mcphost?: { backend?: unknown; name?: unknown } } & Record<string, unknown>;
}

function backendNameOf(packageName: string, declared?: unknown): string {
  if (typeof declared === 'string' && declared !== '') return declared;
  return packageName.replace(/^@[^/]+\//, '').replace(/^mcphost-plugin-/, '');
}

export function installedPackages(plugins: Iterable<OclifPluginLike>): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  for (const plugin of plugins) {
    if (plugin.type !== 'user' && plugin.type !== 'link') continue;
    const backend = plugin.pjson.mcphost?.backend;
    if (typeof backend !== 'string' || backend === '') continue;
    out.push({
      backendName: backendNameOf(plugin.name, plugin.pjson.mcphost?.name),
      packageName: plugin.name,
      version: plugin.version,
      root: plugin.root,
      entry: path.resolve(plugin.root, backend),
      type: plugin.type,
    });
  }
  return out;
}

/**
 * The packages `plugins:install` has put in `dataDir` (its package.json's `oclif.plugins`, type
 * user), read from disk: right after an install oclif's own list does not mark the new one as a user plugin.
 */
export function userPackagesIn(dataDir: string): OclifPluginLike[] {
  const read = (file: string) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const plugins = ((read(path.join(dataDir, 'package.json'))?.oclif as { plugins?: unknown[] } | undefined)?.plugins ?? []) as Array<
    { name?: string; type?: string } | string
  >;
  return plugins
    .filter((p): p is { name: string; type: string } => typeof p === 'object' && p?.type === 'user' && typeof p.name === 'string')
    .flatMap((p) => {
      const root = path.join(dataDir, 'node_modules', p.name);
      const pjson = read(path.join(root, 'package.json'));
      return pjson ? [{ name: p.name, version: String(pjson.version ?? '?'), root, type: 'user', pjson }] : [];
    });
}

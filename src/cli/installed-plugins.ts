// The backends installed as npm packages, as every command reads them from oclif's plugin list.
// One place for the one cast: oclif types a plugin's package.json as its own PJSON, which does not
// know the `mcphost` section our packages add.
import type { Interfaces } from '@oclif/core';
import { installedPackages, type InstalledPackage, type OclifPluginLike } from '../loader/installed.js';

export function installedPlugins(config: Pick<Interfaces.Config, 'getPluginsList'>): InstalledPackage[] {
  return installedPackages(
    config.getPluginsList().map((plugin): OclifPluginLike => ({
      name: plugin.name,
      version: plugin.version,
      root: plugin.root,
      type: plugin.type,
      pjson: plugin.pjson as OclifPluginLike['pjson'],
    })),
  );
}

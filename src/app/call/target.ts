// Which plugin a `call` means. `mcphost call imhex read_bytes` names it; `mcphost call
// imhex_read_bytes` (the name `mcphost tools` prints) carries it as a prefix. Plugin names may
// themselves hold `_`, so the longest known name that prefixes the tool wins.
import type { ResolvedConfig } from '../../config/resolve.js';
import { builtinNames } from '../../loader/builtins.js';
import type { InstalledPackage } from '../../loader/installed.js';
import { UnknownNameError } from '../../registry/errors.js';
import { closest } from '../../kit/closest.js';

export interface ToolTarget {
  plugin: string;
  tool: string;
}

/** Every backend name this invocation could load: configured, mounted, built in, installed. */
export function knownBackends(resolved: ResolvedConfig, installed: InstalledPackage[] = [], builtinRoot?: string): string[] {
  return [
    ...new Set([
      ...resolved.plugins,
      ...Object.keys(resolved.config.plugins),
      ...Object.keys(resolved.config.servers),
      ...builtinNames(builtinRoot),
      ...installed.map((p) => p.backendName),
    ]),
  ];
}

/** The plugin a published tool name belongs to; throws (a usage error) when no known plugin prefixes it. */
export function targetOfPublished(name: string, known: string[]): ToolTarget {
  const owner = known.filter((p) => name.startsWith(`${p}_`) && name.length > p.length + 1).sort((a, b) => b.length - a.length)[0];
  if (owner) return { plugin: owner, tool: name };
  const near = closest(name.split('_')[0], known);
  throw new UnknownNameError(
    'tool',
    name,
    [],
    `: a published name starts with its plugin (${known.slice(0, 6).join('_…, ')}_…)${near.length ? `; did you mean ${near[0]}_…?` : ''}` +
      ' — or give the plugin first: mcphost call <plugin> <tool>',
  );
}

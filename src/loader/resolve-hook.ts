// A Node module resolve hook (registered by host-modules.ts, run in Node's hooks thread): a plugin
// installed with `mcphost plugins:install` (or linked, or named by `plugins.<name>.module`) lives
// outside this package, where `import … from 'mcphost'` finds nothing — mcphost is not on npm, and
// the plugin's node_modules has no copy. The hook answers `mcphost`, `mcphost/kit` and
// `mcphost/package.json` with this host's own files, so every plugin shares the host's one copy of
// the contract (its error classes included), and lends the host's `zod` to a plugin that has none.

export interface HostModules {
  /** Bare specifier → file URL of this host's module. */
  entries: Record<string, string>;
  /** Packages a plugin may bring itself, else gets the host's (resolved from `parentURL`). */
  lent: string[];
  parentURL: string;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type NextResolve = (specifier: string, context?: { parentURL?: string; conditions?: string[] }) => Resolved | Promise<Resolved>;

let modules: HostModules = { entries: {}, lent: [], parentURL: '' };

export function initialize(data: HostModules): void {
  modules = data;
}

export function isLent(specifier: string, lent: readonly string[]): boolean {
  return lent.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

export async function resolve(
  specifier: string,
  context: { parentURL?: string; conditions?: string[] },
  next: NextResolve,
): Promise<Resolved> {
  const url = modules.entries[specifier];
  if (url) return { url, shortCircuit: true };
  if (!isLent(specifier, modules.lent)) return next(specifier, context);
  try {
    return await next(specifier, context);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: modules.parentURL });
  }
}

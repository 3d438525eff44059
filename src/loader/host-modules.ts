// Makes `mcphost`, `mcphost/kit` (and, for a plugin without its own, `zod`) importable by a backend
// that lives outside this package: registers resolve-hook.ts once, the first time such a backend is
// imported. Built-in plugins import the host by relative path and never need it.
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import type { HostModules } from './resolve-hook.js';

let registered = false;

function hostModules(): HostModules {
  const at = (relative: string) => new URL(relative, import.meta.url).href;
  return {
    entries: {
      mcphost: at('../backend/index.js'),
      'mcphost/kit': at('../kit/index.js'),
      'mcphost/package.json': at('../../../package.json'),
    },
    lent: ['zod'],
    parentURL: import.meta.url,
  };
}

/**
 * Registers the hook unless already done. Running from TypeScript sources (the in-process tests),
 * Node cannot load the hook file itself, and there is nothing to register. Node 20.0–20.5 have no
 * `module.register`: there a plugin must find `mcphost` itself (`npm link mcphost` in its folder).
 */
function provideHostModules(): void {
  const register = (nodeModule as { register?: typeof nodeModule.register }).register;
  if (registered || !import.meta.url.endsWith('.js') || typeof register !== 'function') return;
  registered = true;
  register(new URL('./resolve-hook.js', import.meta.url), { data: hostModules() });
}

/** Imports a backend module from outside the host, with `mcphost` and `mcphost/kit` resolvable. */
export async function importOutside(file: string): Promise<unknown> {
  provideHostModules();
  return import(pathToFileURL(file).href);
}

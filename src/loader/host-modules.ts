// Makes `mcphost`, `mcphost/kit` and its subpaths (and, for a plugin without its own, `zod`) importable by a backend
// that lives outside this package: registers resolve-hook.ts once, the first time such a backend is
// imported. Built-in plugins import the host by relative path and never need it.
import * as nodeModule from 'node:module';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HostModules } from './resolve-hook.js';

let registered = false;

function hostModules(): HostModules {
  const at = (relative: string) => new URL(relative, import.meta.url).href;
  return {
    entries: {
      mcphost: at('../backend/index.js'),
      'mcphost/kit': at('../kit/index.js'),
      'mcphost/kit/json-lines': at('../kit/json-lines/index.js'),
      'mcphost/kit/upstream': at('../kit/upstream.js'),
      'mcphost/kit/legacy': at('../kit/legacy.js'),
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

/**
 * Imports a backend module from outside the host, with `mcphost` and `mcphost/kit` resolvable. A
 * module whose package is this host's own (a plugin file kept in the host's folder, as the benchmark's
 * and the tests' are) needs no hook: there `mcphost` resolves to the host's own files (a package may
 * import itself by name) and `zod` to the host's copy, as the hook would answer. The hook costs a
 * thread of its own, which a one-shot `mcphost call` waits for at start-up.
 */
export async function importOutside(file: string): Promise<unknown> {
  if (!insideHost(file)) provideHostModules();
  return import(pathToFileURL(file).href);
}

function insideHost(file: string): boolean {
  const own = fileURLToPath(hostModules().entries['mcphost/package.json']);
  if (!existsSync(own)) return false; // Run from TypeScript sources: there is no hook to spare.
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    const pjson = path.join(dir, 'package.json');
    if (existsSync(pjson)) return realpathSync(pjson) === realpathSync(own);
    if (path.dirname(dir) === dir) return false;
  }
}

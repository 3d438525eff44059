// After `mcphost plugins:install`: does the package's backend load? Imported the way `serve` will
// import it (outside the host, with `mcphost` provided), checked against the contract, and not
// hidden by a built-in plugin of the same name.
import type { Backend } from '../backend/types.js';
import { builtinEntry, BUILTIN_ROOT } from './builtins.js';
import { importOutside } from './host-modules.js';
import type { InstalledPackage } from './installed.js';
import { instantiate } from './load.js';

export type Verdict = { ok: true; backend: Backend } | { ok: false; reason: string };

export async function verifyInstalled(pkg: InstalledPackage, builtinRoot = BUILTIN_ROOT): Promise<Verdict> {
  if (builtinEntry(pkg.backendName, builtinRoot)) {
    return {
      ok: false,
      reason: `its backend is named ${pkg.backendName}, which is built in, so it would never be served; give it another name with "mcphost": { "name": "…" } in its package.json`,
    };
  }
  try {
    const backend = await instantiate(pkg.backendName, await importOutside(pkg.entry), pkg.entry);
    return { ok: true, backend };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

// What `tools`, `resources` and `prompts` list, and the rule they share: a backend that was asked
// for but could not list (an editor that is not running, a mounted server that is down) makes the
// command fail after printing what the others listed, instead of an empty table that exits 0.
import { BackendDownError } from './failures.js';
import { openHost, type OpenHostOptions } from './open.js';
import type { Registry } from '../registry/registry.js';

export interface Listing<T> {
  items: T;
  /** Backends whose listing failed, with why. */
  down: Array<{ plugin: string; message: string }>;
}

/** Opens the host (`plugin` alone when given, and then strictly), lists, and closes it again. */
export async function listFrom<T>(
  options: OpenHostOptions & { plugin?: string },
  list: (registry: Registry) => Promise<T>,
): Promise<Listing<T>> {
  const only = options.plugin ? [options.plugin] : options.only;
  const { registry } = await openHost({ ...options, only, strict: options.strict ?? Boolean(options.plugin) });
  try {
    const items = await list(registry);
    const down = registry.hosts
      .filter((h) => h.lastError !== undefined && (!options.plugin || h.name === options.plugin))
      .map((h) => ({ plugin: h.name, message: h.lastError! }));
    return { items, down };
  } finally {
    await registry.close();
  }
}

/** The error a listing command ends with when a backend was down (after printing the rest). */
export function downError(listing: Listing<unknown>): BackendDownError | undefined {
  return listing.down.length > 0 ? new BackendDownError(listing.down) : undefined;
}

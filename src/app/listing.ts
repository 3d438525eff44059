// What `tools`, `resources` and `prompts` list, and the rule they share: a backend that was asked
// for but could not list (an editor that is not running, a mounted server that is down) makes the
// command fail after printing what the others listed, instead of an empty table that exits 0.
import { BackendDownError } from './failures.js';
import { openHost, type OpenHostOptions } from './open.js';
import { ConfigError } from '../config/errors.js';
import { NotTrustedError, PluginLoadError } from '../loader/errors.js';
import type { Registry } from '../registry/registry.js';

export interface Listing<T> {
  items: T;
  /** Backends whose listing failed, with why. */
  down: Array<{ plugin: string; message: string }>;
  /** Backends a file that is not trusted would start: nothing of them ran (`hint`: what to run). */
  untrusted: Array<{ plugin: string; message: string; hint: string }>;
  /** Backends whose entry or config cannot be used (`hint`: the first problem). */
  unusable: Array<{ plugin: string; message: string; hint: string }>;
}

/** Opens the host (`plugin` alone when given, and then strictly), lists, and closes it again. */
export async function listFrom<T>(
  options: OpenHostOptions & { plugin?: string },
  list: (registry: Registry) => Promise<T>,
): Promise<Listing<T>> {
  const only = options.plugin ? [options.plugin] : options.only;
  const { registry, failures } = await openHost({ ...options, only, strict: options.strict ?? Boolean(options.plugin), listing: true });
  const untrusted = failures
    .filter((f): f is NotTrustedError => f instanceof NotTrustedError)
    .map((f) => ({ plugin: f.plugin, message: f.message, hint: f.hint }));
  const unusable = failures
    .filter((f): f is ConfigError => f instanceof ConfigError)
    .map((f) => ({ plugin: f.plugin ?? '?', message: f.message, hint: `cannot be used: ${f.lines[0]?.message ?? f.message}` }));
  try {
    const items = await list(registry);
    const down = registry.hosts
      .filter((h) => h.lastError !== undefined && (!options.plugin || h.name === options.plugin))
      .map((h) => ({ plugin: h.name, message: h.lastError! }));
    return { items, down, untrusted, unusable };
  } finally {
    await registry.close();
  }
}

/**
 * The error a listing command ends with (after printing the rest): a backend that is not trusted
 * (exit 2, the more basic problem), else one that was down (exit 4).
 */
export function downError(listing: Listing<unknown>): Error | undefined {
  const [first] = listing.untrusted;
  if (first) return new PluginLoadError(first.plugin, listing.untrusted.map((u) => u.message).join('\n'));
  if (listing.unusable.length > 0) return new ConfigError(listing.unusable.map((u) => u.message).join('\n'));
  return listing.down.length > 0 ? new BackendDownError(listing.down) : undefined;
}

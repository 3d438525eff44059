// GET /health. Checks are shared: one check of every backend serves all requests for `cacheMs`
// (a backend's health may start a process, so 500 requests must not mean 500 checks). Who may see
// what: with a token set, a caller without it gets a bare liveness answer; without a token, the
// report leaves out each backend's `detail` and shortens absolute paths in its messages; only a
// caller holding the token sees everything.
import type { Registry } from '../registry/registry.js';
import type { ServerInfo } from './mcp-server.js';

export type HealthAccess = 'full' | 'redacted' | 'liveness';

type Reports = Awaited<ReturnType<Registry['health']>>;

export interface HealthOptions {
  /** How long one check of the backends answers /health (default 5 s). */
  cacheMs?: number;
  now?: () => number;
}

export const HEALTH_CACHE_MS = 5_000;

export function createHealth(registry: Registry, info: ServerInfo, options: HealthOptions = {}) {
  const cacheMs = options.cacheMs ?? HEALTH_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; reports: Promise<Reports> } | undefined;

  const reports = (): Promise<Reports> => {
    if (!cached || now() - cached.at >= cacheMs) {
      const at = now();
      const pending = registry.health();
      cached = { at, reports: pending };
      // A check that failed outright is not kept.
      pending.catch(() => {
        if (cached?.reports === pending) cached = undefined;
      });
    }
    return cached.reports;
  };

  return async function answer(access: HealthAccess): Promise<Record<string, unknown>> {
    if (access === 'liveness') return { live: true };
    const backends = await reports();
    const ok = Object.values(backends).every((b) => b.ok);
    const shown =
      access === 'full'
        ? backends
        : Object.fromEntries(
            Object.entries(backends).map(([name, { ok, state, message }]) => [
              name,
              { ok, state, ...(message !== undefined && { message: shortenPaths(message) }) },
            ]),
          );
    return { ok, name: info.name, version: info.version, backends: shown };
  };
}

// An absolute path: `/a/b` not preceded by a word character, `:` or `/` (so URLs keep theirs), or `C:\a\b`.
const ABSOLUTE_PATH = /(?<![\w:/.~-])(?:\/[^\s/'"`,;()]+)+\/?|\b[A-Za-z]:\\[^\s'"`,;()]*/g;

/** Absolute paths in `text` cut to their last part: "…/doc". */
export function shortenPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (path) => `…/${path.split(/[/\\]/).filter(Boolean).pop() ?? ''}`);
}

// GET /health. A backend's health may start processes (pob's ran luajit twice), so a check is
// shared and reused: concurrent requests wait for the one in flight, and a finished check answers
// for 50 times as long as it took, up to 2 s. However often /health is asked, checks then take at
// most ~2% of the time; a check that costs nothing (a status read) is still fresh on every request.
// Who sees what: with a token set, a caller without it gets a bare liveness answer; without a
// token, the report has every absolute path cut to its last part; only the token holder sees them.
import type { BackendHost } from '../registry/backend-host.js';
import type { Registry } from '../registry/registry.js';
import type { ServerInfo } from './mcp-server.js';

export type HealthAccess = 'full' | 'redacted' | 'liveness';

type Report = Awaited<ReturnType<BackendHost['health']>>;

export interface HealthOptions {
  now?: () => number;
}

/** A check answers for this many times its own duration… */
const HEALTH_REUSE_FACTOR = 50;
/** …and never longer than this. */
const HEALTH_MAX_REUSE_MS = 2_000;

export function createHealth(registry: Registry, info: ServerInfo, options: HealthOptions = {}) {
  const now = options.now ?? Date.now;
  const checks = new Map<BackendHost, { report: Promise<Report>; until: number }>();

  const check = (host: BackendHost): Promise<Report> => {
    const last = checks.get(host);
    if (last && now() < last.until) return last.report;
    const started = now();
    const entry = { report: host.health(), until: Number.POSITIVE_INFINITY };
    checks.set(host, entry);
    void entry.report.then(
      () => (entry.until = now() + Math.min(HEALTH_MAX_REUSE_MS, HEALTH_REUSE_FACTOR * (now() - started))),
      () => checks.get(host) === entry && checks.delete(host),
    );
    return entry.report;
  };

  async function answer(access: HealthAccess): Promise<Record<string, unknown>> {
    if (access === 'liveness') return { live: true };
    const backends = Object.fromEntries(await Promise.all(registry.hosts.map(async (h) => [h.name, await check(h)] as const)));
    const ok = Object.values(backends).every((b) => b.ok);
    return { ok, name: info.name, version: info.version, backends: access === 'full' ? backends : withoutPaths(backends) };
  }
  // One backend's check, shared with /metrics (its backend_up gauge).
  return Object.assign(answer, { check });
}

// An absolute path: `/a/b` not preceded by a word character, `:` or `/` (so URLs keep theirs), or `C:\a\b`.
const ABSOLUTE_PATH = /(?<![\w:/.~-])(?:\/[^\s/'"`,;()]+)+\/?|\b[A-Za-z]:\\[^\s'"`,;()]*/g;

/** A copy of `value` with the absolute paths in its strings cut to their last part. */
function withoutPaths<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return shortenPaths(value) as T;
  if (value === null || typeof value !== 'object' || depth > 16) return value;
  if (Array.isArray(value)) return value.map((v) => withoutPaths(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPaths(v, depth + 1)])) as T;
}

/** Absolute paths in `text` cut to their last part: "…/doc". */
function shortenPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (path) => `…/${path.split(/[/\\]/).filter(Boolean).pop() ?? ''}`);
}

// Live configuration for `mcphost serve`: when a config file it read changes, the configuration is
// resolved again as at start-up and compared with the running one. Backends and servers whose
// settings changed are restarted, new ones added, dropped ones stopped; the others keep running
// untouched, and so does every client session. An edit that does not validate changes nothing and
// is logged with its file and key. Approval holds as at start-up: a project file that changed since
// it was approved is approved no more, so what it names does not start — and what it started
// before keeps running as it was until the edit is approved (`mcphost trust`, which is watched too).
import { withheldText } from '../backend/approval.js';
import type { Logger } from '../backend/types.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { pinsFile } from '../config/tool-pins.js';
import { notTrustedText, trustStoreFile } from '../config/trust.js';
import { toolSurface } from '../discover/surface.js';
import { NotTrustedError } from '../loader/errors.js';
import { loadBackends, type LoadedBackend } from '../loader/load.js';
import type { Registry } from '../registry/registry.js';
import { loaderOptions, openConfig, type OpenOptions } from './open.js';

export interface ReloadState {
  resolved: ResolvedConfig;
  loaded: LoadedBackend[];
}

export interface ReloadOutcome {
  applied: boolean;
  added: string[];
  removed: string[];
  restarted: string[];
  /** Why nothing was applied. */
  reason?: string;
}

/** Host settings a running server cannot take over: a restart applies them. */
const RESTART_KEYS = ['http', 'timeouts', 'limits', 'tasks', 'log', 'audit', 'cacheDir', 'imports'] as const;

/** The files whose change means a reload: the config file, the clients' files it imports, the approval record. */
function watchedFiles(resolved: ResolvedConfig): string[] {
  const files = new Set<string>();
  if (resolved.file) files.add(resolved.file);
  for (const imported of resolved.imported.values()) files.add(imported.file);
  files.add(trustStoreFile(resolved.env));
  // Not a reason to reload: live-config.ts tells clients to list the tools again instead.
  files.add(pinsFile(resolved.env));
  return [...files];
}

/** What identifies a backend's running configuration: same fingerprint, nothing to restart. */
function fingerprint(l: LoadedBackend): string {
  const { origin, section, config, configDir, cacheDir } = l;
  return JSON.stringify({ origin, section, config, configDir, cacheDir, withheld: (l.withheld ?? []).map((w) => w.path) });
}

export function createReloader(options: OpenOptions, registry: Registry, state: ReloadState, logger: Logger) {
  let queue: Promise<unknown> = Promise.resolve();

  async function reload(why: string): Promise<ReloadOutcome> {
    const none = (reason: string): ReloadOutcome => ({ applied: false, added: [], removed: [], restarted: [], reason });
    let resolved: ResolvedConfig;
    try {
      ({ resolved } = await openConfig({ ...options, writeLog: () => undefined }));
    } catch (error) {
      const reason = (error as Error).message;
      logger.error(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }
    if (resolved.unread && resolved.trust) {
      const reason = `${resolved.file} is code and changed: ${notTrustedText(resolved.trust)}`;
      logger.warn(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }
    if (resolved.plugins.length === 0) {
      const reason = 'it names no plugins or servers to serve';
      logger.error(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }
    const { loaded, failures } = await loadBackends(resolved.plugins, loaderOptions({ resolved, logger, logLevel: 'info' }, options));
    const running = new Map(state.loaded.map((l) => [l.name, l]));
    const untrusted = failures.filter((f): f is NotTrustedError => f instanceof NotTrustedError);
    const blocking = failures.filter((f) => !(f instanceof NotTrustedError));
    if (blocking.length > 0) {
      const reason = blocking.map((f) => f.message).join('; ');
      logger.error(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }
    // A running server whose file is approved no more keeps running as approved; the edit waits.
    const stale = untrusted.filter((f) => running.has(f.plugin));
    if (stale.length > 0) {
      const reason = stale.map((f) => f.message).join('; ');
      logger.warn(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }
    for (const f of untrusted) logger.warn(f.message);
    // Likewise a running backend whose settings that run something are approved no more: it keeps
    // what it was started with until the edit is approved, rather than restarting on the defaults.
    const unapproved = loaded.filter((l) => {
      const before = running.get(l.name);
      const was = new Set((before?.withheld ?? []).map((w) => w.path));
      return before !== undefined && (l.withheld ?? []).some((w) => !was.has(w.path));
    });
    if (unapproved.length > 0) {
      const reason = unapproved.map((l) => withheldText(l.withheld ?? [])).join('; ');
      logger.warn(`config changed (${why}) but was not applied: ${reason}; still serving the previous configuration`);
      return none(reason);
    }

    const wanted = new Map(loaded.map((l) => [l.name, l]));
    const added = loaded.filter((l) => !running.has(l.name));
    const restarted = loaded.filter((l) => running.has(l.name) && fingerprint(running.get(l.name)!) !== fingerprint(l));
    const removed = state.loaded.filter((l) => !wanted.has(l.name)).map((l) => l.name);
    const kept = state.loaded.filter((l) => wanted.has(l.name) && !restarted.some((r) => r.name === l.name));
    const next = [...kept, ...added, ...restarted];
    for (const key of RESTART_KEYS) {
      if (JSON.stringify(resolved.config[key]) !== JSON.stringify(state.resolved.config[key])) {
        logger.warn(`config changed: ${key} takes effect when mcphost serve restarts`);
      }
    }
    await registry.reconfigure({
      remove: [...removed, ...restarted.map((l) => l.name)],
      add: [...added, ...restarted],
      roots: resolved.config.files.roots ?? next.flatMap((l) => l.paths ?? []),
    });
    const tools = toolSurface(registry);
    const before = JSON.stringify({ mode: tools.mode, pinned: tools.pinnedPatterns });
    tools.configure(resolved.config.tools);
    if (JSON.stringify({ mode: tools.mode, pinned: tools.pinnedPatterns }) !== before) registry.notifyListChanged('tools');
    state.resolved = resolved;
    state.loaded = next;
    const eager = [...added, ...restarted].filter((l) => l.section.eager).map((l) => l.name);
    void Promise.allSettled(eager.map((name) => registry.host(name)?.ensureStarted()));
    const outcome = { applied: true, added: added.map((l) => l.name), removed, restarted: restarted.map((l) => l.name) };
    const said = [
      outcome.added.length && `added ${outcome.added.join(', ')}`,
      outcome.removed.length && `removed ${outcome.removed.join(', ')}`,
      outcome.restarted.length && `restarted ${outcome.restarted.join(', ')}`,
    ].filter(Boolean);
    logger.info(`config reloaded (${why}): ${said.join('; ') || 'no backend changed'}`);
    return outcome;
  }

  return {
    /** Reloads now, after any reload in progress (one at a time, in order). */
    reload(why: string): Promise<ReloadOutcome> {
      const run = queue.then(() => reload(why));
      queue = run.catch(() => undefined);
      return run;
    },
    /** The files to watch for the configuration now in force. */
    files: () => watchedFiles(state.resolved),
  };
}

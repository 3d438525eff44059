// Resource subscriptions: one backend watch per URI however many clients subscribed (2025-era
// sessions with resources/subscribe, 2026-era listen streams with resourceSubscriptions), started
// by the first subscriber and stopped when the last one leaves. A resource whose backend cannot
// report changes is refused: the client would otherwise wait for updates that never come.
import type { BackendContext, ResourceSubscribe } from '../backend/types.js';

export { NotWatchableError } from '../backend/errors.js';

interface Watch {
  listeners: Set<(uri: string) => void>;
  stop: Promise<(() => void | Promise<void>) | undefined>;
}

export class ResourceWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly logger: BackendContext['logger']) {}

  /**
   * Adds `listener` for `uri`, starting the backend's watch for the first one. Returns what removes
   * it again (idempotent).
   */
  async add(
    uri: string,
    target: { subscribe: ResourceSubscribe; ctx: BackendContext },
    listener: (uri: string) => void,
  ): Promise<() => void> {
    let watch = this.watches.get(uri);
    if (!watch) {
      const listeners = new Set<(uri: string) => void>();
      const changed = () => {
        for (const l of [...listeners]) l(uri);
      };
      const stop = Promise.resolve()
        .then(() => target.subscribe(uri, changed, target.ctx))
        .catch((error: Error) => {
          this.watches.delete(uri);
          throw error;
        });
      watch = { listeners, stop };
      this.watches.set(uri, watch);
    }
    watch.listeners.add(listener);
    try {
      await watch.stop;
    } catch (error) {
      watch.listeners.delete(listener);
      throw error;
    }
    const current = watch;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.watches.get(uri) !== current) return;
      this.watches.delete(uri);
      void current.stop
        .then((stop) => stop?.())
        .catch((error: Error) => this.logger.debug(`stopping the watch of ${uri}: ${error.message}`));
    };
  }

  /** URIs watched now (for tests and /health). */
  get size(): number {
    return this.watches.size;
  }

  async close(): Promise<void> {
    const all = [...this.watches.values()];
    this.watches.clear();
    await Promise.allSettled(all.map(async (w) => (await w.stop)?.()));
  }
}

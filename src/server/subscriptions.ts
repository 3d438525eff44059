// resources/subscribe and resources/unsubscribe for a 2025-era session, and the resource
// subscriptions a 2026-era `subscriptions/listen` stream asks for (its `resourceSubscriptions`):
// each holds a watch in the registry for as long as it stands. An unknown URI is refused with
// -32602 (as resources/read refuses it), a resource whose backend cannot watch it likewise.
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { UnknownNameError } from '../registry/errors.js';
import type { Registry } from '../registry/registry.js';
import { NotWatchableError } from '../registry/watches.js';
import type { Logger } from '../backend/types.js';
import { isRequestError } from '../backend/errors.js';
import type { HostClient } from '../registry/clients.js';

function refused(error: unknown, uri: string): Error {
  if (error instanceof UnknownNameError)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri.slice(0, 200)} not found`, { uri });
  if (error instanceof NotWatchableError) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri });
  if (isRequestError(error)) return new ProtocolError(error.code, error.message, error.data);
  return new ProtocolError(ProtocolErrorCode.InternalError, `cannot watch ${uri.slice(0, 200)}: ${(error as Error)?.message ?? error}`);
}

/** The 2025-era methods on one session's instance; its subscriptions end with it. */
export function installSubscriptions(server: Server, registry: Registry, client?: HostClient): () => void {
  const held = new Map<string, () => void>();
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    if (held.has(uri)) return {};
    try {
      const release = await registry.watch(
        uri,
        (changed) => void server.sendResourceUpdated({ uri: changed }).catch(() => undefined),
        client,
      );
      held.get(uri)?.();
      held.set(uri, release);
    } catch (error) {
      throw refused(error, uri);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    held.get(request.params.uri)?.();
    held.delete(request.params.uri);
    return {};
  });
  const releaseAll = () => {
    for (const release of held.values()) release();
    held.clear();
  };
  const previous = server.onclose;
  server.onclose = () => {
    releaseAll();
    previous?.();
  };
  return releaseAll;
}

/** The URIs a `subscriptions/listen` request asks to watch (none for anything else). */
export function listenedResources(message: unknown): string[] {
  const m = message as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined;
  if (m?.method !== 'subscriptions/listen') return [];
  const uris = m.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').slice(0, 100) : [];
}

/**
 * Holds the watches of a 2026-era listen stream until `ended` resolves; `publish` tells the stream.
 * URIs that cannot be watched are skipped (the stream itself is the SDK's, and stays open).
 */
export function holdListenWatches(
  registry: Registry,
  uris: string[],
  publish: (uri: string) => void,
  ended: Promise<unknown>,
  logger: Logger,
  client?: HostClient,
): void {
  const releases = uris.map((uri) =>
    registry.watch(uri, publish, client).catch((error: Error) => {
      logger.debug(`listen: not watching ${uri.slice(0, 200)}: ${error.message}`);
      return () => undefined;
    }),
  );
  void ended.finally(async () => {
    for (const release of await Promise.all(releases)) release();
  });
}

/**
 * The URIs a named client's `subscriptions/listen` may watch: those its policy refuses are taken out
 * of the request itself, so that the SDK's stream is not told of their changes by another's watch.
 */
export async function keepReadable(registry: Registry, message: unknown, client: HostClient): Promise<string[]> {
  const uris = listenedResources(message);
  if (uris.length === 0) return uris;
  const kept: string[] = [];
  for (const uri of uris) {
    const refused = await registry.checkWatch(uri, client).then(
      () => false,
      (error: unknown) => isRequestError(error),
    );
    if (!refused) kept.push(uri);
  }
  const notifications = (message as { params: { notifications: { resourceSubscriptions: unknown[] } } }).params.notifications;
  if (kept.length < uris.length)
    notifications.resourceSubscriptions = notifications.resourceSubscriptions.filter((u) => kept.includes(u as string));
  return kept;
}

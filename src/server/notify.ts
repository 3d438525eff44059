// Sends list-changed notifications to a connected server instance when the registry's lists change.
import type { Server } from '@modelcontextprotocol/server';
import type { ListKind } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';

function sendListChanged(server: Server, kind: ListKind): void {
  const send =
    kind === 'tools'
      ? server.sendToolListChanged()
      : kind === 'resources'
        ? server.sendResourceListChanged()
        : server.sendPromptListChanged();
  // An instance that is not connected yet, or already closed, has nobody to tell.
  void Promise.resolve(send).catch(() => undefined);
}

/** Keeps a long-lived instance (a stdio connection, an HTTP session) told of list changes until it closes. */
export function attachListChanged(registry: Registry, server: Server): () => void {
  const unsubscribe = registry.onListChanged((kind) => sendListChanged(server, kind));
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return unsubscribe;
}

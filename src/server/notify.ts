// Sends list-changed notifications to every live server instance when the registry's lists change.
import type { Server } from '@modelcontextprotocol/server';
import type { ListKind } from '../backend/types.js';

export function sendListChanged(server: Server, kind: ListKind): void {
  const send =
    kind === 'tools' ? server.sendToolListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
  // An instance that is not connected yet, or already closed, has nobody to tell.
  void Promise.resolve(send).catch(() => undefined);
}

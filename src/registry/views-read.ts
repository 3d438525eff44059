// Which backends' views (`ui://` resources) each client has read. A view calls its server's tools
// by the server's own names (`get-time`), which mcphost publishes prefixed (`clock_get-time`); the
// name alone finds the server when one backend has such a tool, and when several do (the same app
// server mounted twice), the one whose views this client read. Kept per client, dropped with it.
import type { HostClient } from './clients.js';

/** How many backends a client is remembered to have read views of (the most recent kept). */
const KEPT = 32;

export class ViewsRead {
  private readonly read = new WeakMap<HostClient, string[]>();

  saw(client: HostClient, plugin: string): void {
    const list = this.read.get(client) ?? [];
    const at = list.indexOf(plugin);
    if (at !== -1) list.splice(at, 1);
    list.push(plugin);
    if (list.length > KEPT) list.shift();
    this.read.set(client, list);
  }

  of(client: HostClient | undefined): readonly string[] {
    return (client && this.read.get(client)) ?? [];
  }
}

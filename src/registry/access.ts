// What a named client's calls are held to, carried by its HostClient: its policy (policy.ts). Built
// once per host from `http.clients`; a caller that is no named client (anonymous, `--token`, an
// OAuth subject mapped onto none) is held to nothing.
import type { Identity } from './identity.js';
import { ClientPolicy, type PolicyRules } from './policy.js';

export interface ClientAccess {
  /** The client's name (`http.clients.<name>`). */
  name: string;
  policy: ClientPolicy;
}

/** The access of each named client, by identity. */
export function clientAccess(clients: Readonly<Record<string, Readonly<PolicyRules>>>): (identity: Identity) => ClientAccess | undefined {
  const byName = new Map<string, ClientAccess>();
  for (const [name, rules] of Object.entries(clients)) byName.set(name, { name, policy: new ClientPolicy(name, rules) });
  return (identity) => (identity.client === undefined ? undefined : byName.get(identity.client));
}

// What a named client's calls are held to, carried by its HostClient: its policy (policy.ts) and
// its limits (caller-limits.ts), one set per client however many connections it has. Built
// once per host from `http.clients`; a caller that is no named client (anonymous, `--token`, an
// OAuth subject mapped onto none) is held to nothing.
import type { Identity } from './identity.js';
import { ClientPolicy, type PolicyRules } from './policy.js';
import { CallerLimits, type LimitRules } from './caller-limits.js';

export interface ClientAccess {
  /** The client's name (`http.clients.<name>`). */
  name: string;
  policy: ClientPolicy;
  limits: CallerLimits;
}

type AccessRules = PolicyRules & { limits: LimitRules };

/** The access of each named client, by identity. */
export function clientAccess(
  clients: Readonly<Record<string, Readonly<AccessRules>>>,
  now: () => number = Date.now,
): (identity: Identity) => ClientAccess | undefined {
  const byName = new Map<string, ClientAccess>();
  for (const [name, rules] of Object.entries(clients)) {
    byName.set(name, { name, policy: new ClientPolicy(name, rules), limits: new CallerLimits(name, rules.limits, now) });
  }
  return (identity) => (identity.client === undefined ? undefined : byName.get(identity.client));
}

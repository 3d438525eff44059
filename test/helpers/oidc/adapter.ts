// oidc-provider's storage, kept in one Map per test server so a test can see what the server issued
// (every token and code, to grep logs for them) and take a user's grants back (revocation). The
// interface is oidc-provider's documented Adapter (find, upsert, consume, destroy, revokeByGrantId,
// findByUid, findByUserCode), as its own in-memory adapter implements it (lib/adapters/memory_adapter.js).
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Stored {
  payload: AdapterPayload;
  expiresAt?: number;
}

export class TestStore {
  private readonly items = new Map<string, Stored>();
  /** Every id ever stored per model (for opaque tokens, refresh tokens and codes, the id is the token), and client secrets. */
  readonly issued = new Map<string, Set<string>>();

  adapter(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    const get = (id: string): AdapterPayload | undefined => {
      const item = this.items.get(key(id));
      if (!item) return undefined;
      if (item.expiresAt !== undefined && item.expiresAt < Date.now()) {
        this.items.delete(key(id));
        return undefined;
      }
      return item.payload;
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        this.items.set(key(id), { payload, ...(expiresIn && { expiresAt: Date.now() + expiresIn * 1000 }) });
        let ids = this.issued.get(model);
        if (!ids) this.issued.set(model, (ids = new Set()));
        // A client's id is public (it is in every authorization link); its secret is not.
        if (model !== 'Client') ids.add(id);
        if (typeof payload.client_secret === 'string') ids.add(payload.client_secret);
      },
      find: async (id) => get(id),
      findByUid: async (uid) => [...this.items.entries()].find(([k, v]) => k.startsWith(`${model}:`) && v.payload.uid === uid)?.[1].payload,
      findByUserCode: async (code) =>
        [...this.items.entries()].find(([k, v]) => k.startsWith(`${model}:`) && v.payload.userCode === code)?.[1].payload,
      consume: async (id) => {
        const payload = get(id);
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => {
        this.items.delete(key(id));
      },
      revokeByGrantId: async (grantId) => {
        for (const [k, v] of this.items) if (v.payload.grantId === grantId) this.items.delete(k);
      },
    };
  }

  /** The grant ids of every stored grant (what a user's "revoke access" in their account takes back). */
  grantIds(): string[] {
    return [...this.items.entries()].filter(([k]) => k.startsWith('Grant:')).map(([k]) => k.slice('Grant:'.length));
  }
}

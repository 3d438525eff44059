// What every server instance of one host shares, whichever transport and era built it: the seal of
// requestState, the ids of what it holds (held-ids.ts), the calls paused for their clients, and the tasks. An HTTP host builds an instance
// per 2026-era request, so none of this can live in an instance.
import type { RequestStateCodec } from '@modelcontextprotocol/server';
import { DEFAULT_LIMITS, type Limits } from '../registry/limits.js';
import type { Registry } from '../registry/registry.js';
import { PausedCalls } from './paused-calls.js';
import { HeldIds } from './held-ids.js';
import { createStateSeal, stateKey, type Sealed } from './request-state.js';
import { TaskStore } from './tasks/store.js';

export interface HostServices {
  seal: RequestStateCodec<Sealed>;
  ids: HeldIds;
  paused: PausedCalls;
  tasks: TaskStore;
  close(): void;
}

export function createServices(
  env: NodeJS.ProcessEnv = process.env,
  limits: Pick<Limits, 'taskResultBytes'> = DEFAULT_LIMITS,
  /** http.replicaId: the ids of what this replica holds name it. */
  replicaId?: string,
): HostServices {
  const key = stateKey(env);
  const ids = new HeldIds(key, replicaId);
  const paused = new PausedCalls({ ids });
  const tasks = new TaskStore({ maxResultBytes: limits.taskResultBytes, ids });
  return {
    seal: createStateSeal(env, key),
    ids,
    paused,
    tasks,
    close() {
      paused.close();
      tasks.close();
    },
  };
}

const shared = new WeakMap<Registry, HostServices>();

/** The services of a registry served without explicit ones (tests build servers one by one). */
export function servicesOf(registry: Registry): HostServices {
  let services = shared.get(registry);
  if (!services) {
    services = createServices(process.env, registry.limits);
    shared.set(registry, services);
    const created = services;
    registry.onClose(() => created.close());
  }
  return services;
}

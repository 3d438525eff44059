// A 2026-era request about something another replica holds — tasks/get, tasks/update or
// tasks/cancel of its task, or the retry of a call paused there (its requestState names it) — is
// answered `421 Misdirected Request` with `Mcphost-Replica: <id>` before any handler runs, and the
// documented nginx sends it on to that replica (deploy/nginx/nginx.conf.template). nginx routes
// tasks/* by their Mcp-Name header already; a paused call's retry carries its handle only in the
// body, which nginx cannot read, so this answer is what brings that retry home. When the holder
// cannot be reached, nginx gives the request to any replica with `Mcphost-Replica-Gone: <id>`, and
// that replica answers it (the task failed, the call is no longer waiting) instead of sending it back.
import type { ServerResponse } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { callerKey, type Identity } from '../registry/identity.js';
import { isSealed, sealContext } from './request-state.js';
import type { HostServices } from './services.js';

/** The header a replica names the holder in; the one nginx names an unreachable holder in. */
const HOLDER_HEADER = 'mcphost-replica';
const GONE_HEADER = 'mcphost-replica-gone';

const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/** The requests whose retry may continue a paused call (answers.ts). */
const RESUMABLE = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** The live replica holding what `body` is about, when that is not this one; else undefined (served here). Asked only on a replica. */
export async function heldElsewhere(
  body: unknown,
  identity: Identity,
  headers: IncomingHttpHeaders,
  services: Pick<HostServices, 'ids' | 'seal'>,
): Promise<string | undefined> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { taskId?: unknown; requestState?: unknown } };
  if (typeof method !== 'string' || typeof params !== 'object' || params === null) return undefined;
  let id: string | undefined;
  if (TASK_METHODS.has(method) && typeof params.taskId === 'string') id = params.taskId;
  else if (RESUMABLE.has(method) && typeof params.requestState === 'string') {
    // Verified as the handler will: a forged or another caller's state is refused here, not sent on.
    const sealed = await services.seal.verify(params.requestState, sealContext(method, identity)).catch(() => undefined);
    if (isSealed(sealed) && sealed.k === 'p') id = sealed.id;
  }
  if (id === undefined) return undefined;
  const holder = services.ids.holder(id, callerKey(identity));
  if (holder?.where !== 'replica') return undefined;
  const gone = headers[GONE_HEADER];
  return gone === holder.replica ? undefined : holder.replica;
}

export function misdirected(res: ServerResponse, replica: string, id: string | number | null): void {
  res.writeHead(421, { 'content-type': 'application/json', [HOLDER_HEADER]: replica });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Misdirected: replica ${replica} holds what this request continues (a task or a paused call); the load balancer must send it there by this answer's Mcphost-Replica header (deploy/README.md)`,
        data: { replica },
      },
      id,
    }),
  );
}

// What a call asks its client (elicitation, sampling, roots) and how the question travels. A
// 2025-era client can be sent a request at once (`ClientChannel.send`); a 2026-era client cannot
// (that revision has no server→client requests), so the question waits in the call's InputBroker
// until the client answers — on its retry of the request (the server returns an input-required
// result meanwhile) or through `tasks/update` when the call runs as a task.
import type {
  ClientCapabilities,
  ClientLogLevel,
  ElicitAnswer,
  ElicitParams,
  InputRequest,
  Root,
  SampleAnswer,
  SampleParams,
} from '../backend/types.js';
import { MissingCapabilityError } from '../backend/errors.js';

/** How one request reaches back to its client. The server builds one per request; a one-shot command has none. */
export interface ClientChannel {
  /** The protocol generation of the request: `legacy` (2025-era), `modern` (2026-07-28). */
  readonly era: 'legacy' | 'modern';
  /** What the client declared (at initialize, or in this request's `_meta`). */
  readonly capabilities: ClientCapabilities;
  /** Sends a request to the client and waits for its answer (2025-era only). */
  send?(request: InputRequest, signal: AbortSignal): Promise<unknown>;
  /** A log message for the client, filtered by the level it asked for. */
  log?(level: ClientLogLevel, data: unknown, logger?: string): Promise<void>;
  /** The level below which the client wants no log messages (forwarded to a mounted server); undefined: none wanted. */
  readonly logLevel?: ClientLogLevel;
  /** Answers of a retried multi-round-trip request. */
  readonly input?: { responses: Record<string, unknown>; state?: unknown };
}

/** The capabilities an input request needs, as `requiredCapabilities` of a -32021 error names them. */
function requiredCapability(request: InputRequest): ClientCapabilities {
  if (request.method === 'sampling/createMessage') return request.params?.tools ? { sampling: { tools: {} } } : { sampling: {} };
  if (request.method === 'roots/list') return { roots: {} };
  return request.params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
}

/** Whether the client declared what `request` needs (an empty `elicitation: {}` means form mode only, as the spec says). */
function canAsk(capabilities: ClientCapabilities, request: InputRequest): boolean {
  if (request.method === 'sampling/createMessage')
    return capabilities.sampling !== undefined && (!request.params?.tools || !!capabilities.sampling.tools);
  if (request.method === 'roots/list') return capabilities.roots !== undefined;
  const elicitation = capabilities.elicitation;
  if (elicitation === undefined) return false;
  const url = elicitation.url !== undefined;
  const form = elicitation.form !== undefined || !url;
  return request.params?.mode === 'url' ? url : form;
}

interface Pending {
  request: InputRequest;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The questions of one running call that wait for their answers. Keys are minted here (`q1`, `q2`,
 * …) and are what the client answers with.
 */
export class InputBroker {
  private readonly waiting = new Map<string, Pending>();
  private next = 1;
  private readonly listeners = new Set<() => void>();
  private failure?: unknown;

  /** Registers a question and waits for its answer. */
  ask(request: InputRequest, signal?: AbortSignal): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const key = `q${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(key);
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(key, {
        request,
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** The questions still waiting, by key. */
  pending(): Record<string, InputRequest> {
    return Object.fromEntries([...this.waiting].map(([key, p]) => [key, p.request]));
  }

  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Delivers answers; keys that match no waiting question are ignored. Returns how many were answered. */
  answer(responses: Record<string, unknown> | undefined): number {
    let answered = 0;
    for (const [key, value] of Object.entries(responses ?? {})) {
      const pending = this.waiting.get(key);
      if (!pending || !isAnswer(pending.request, value)) continue;
      this.waiting.delete(key);
      pending.resolve(value);
      answered++;
    }
    return answered;
  }

  /** Resolves once at least one question waits (at once if one does). */
  whenAsked(): Promise<void> {
    if (this.waiting.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = () => {
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  /** Fails every waiting question (the call was cancelled or timed out) and any asked later. */
  close(reason: unknown): void {
    this.failure = reason;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of waiting) p.reject(reason);
  }
}

/** An answer has the shape its request's result has; anything else leaves the question open. */
function isAnswer(request: InputRequest, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (request.method === 'elicitation/create') return v.action === 'accept' || v.action === 'decline' || v.action === 'cancel';
  if (request.method === 'roots/list') return Array.isArray(v.roots);
  return typeof v.model === 'string' && v.content !== undefined;
}

export interface Asks {
  elicit(params: ElicitParams): Promise<ElicitAnswer>;
  sample(params: SampleParams): Promise<SampleAnswer>;
  listRoots(): Promise<{ roots: Root[] }>;
  log(level: ClientLogLevel, data: unknown, logger?: string): void;
}

/**
 * The asking half of a CallContext: straight to the client when the channel can send, else through
 * the broker; refused with MissingCapabilityError when the client did not declare what is needed,
 * or when nobody can answer (a one-shot command).
 */
export function asksFor(channel: ClientChannel | undefined, broker: InputBroker | undefined, signal: AbortSignal): Asks {
  const ask = async (request: InputRequest): Promise<unknown> => {
    const capabilities = channel?.capabilities ?? {};
    if (!canAsk(capabilities, request)) {
      const what =
        request.method === 'elicitation/create'
          ? `elicitation${request.params?.mode === 'url' ? ' (url mode)' : ''}`
          : request.method === 'roots/list'
            ? 'roots'
            : 'sampling';
      throw new MissingCapabilityError(
        requiredCapability(request),
        channel
          ? `this needs ${request.method} from the client, but the client did not declare the ${what} capability`
          : `this needs ${request.method}, which only a connected MCP client can answer (not a one-shot command)`,
      );
    }
    if (channel?.send) return channel.send(request, signal);
    if (!broker) throw new MissingCapabilityError(requiredCapability(request), `nobody can answer ${request.method} for this request`);
    return broker.ask(request, signal);
  };
  return {
    elicit: (params) => ask({ method: 'elicitation/create', params: params as Record<string, unknown> }) as Promise<ElicitAnswer>,
    sample: (params) => ask({ method: 'sampling/createMessage', params: params as Record<string, unknown> }) as Promise<SampleAnswer>,
    listRoots: () => ask({ method: 'roots/list', params: {} }) as Promise<{ roots: Root[] }>,
    log: (level, data, logger) => void channel?.log?.(level, data, logger).catch(() => undefined),
  };
}

// What a mounted server asks mcphost's client (elicitation, sampling, roots), relayed to the client
// whose call it is serving. mcphost declares these capabilities to every server it mounts (one
// connection serves all of mcphost's clients); whether the client of the call declared them is
// checked per request by ctx.elicit/sample/listRoots, which refuse with the protocol's -32021.
//
// A 2025-era server's request does not say which of its in-flight calls it belongs to (on stdio
// nothing links them; the SDK client does not expose the HTTP stream it came on). So a request is
// relayed to the caller only while every call in flight on that server comes from one client; with
// calls of several clients in flight it is refused rather than risk showing one client's question
// to another. A server spoken to in 2026-07-28 embeds its questions in the call's own result
// (InputRequiredResult), which is passed through to the client of the call (pass-through.ts): only
// its log messages, which name no call either, come here.
import { ProtocolError, ProtocolErrorCode, type Client, type HandlerResultTypeMap } from '@modelcontextprotocol/client';
import { isRequestError } from '../../backend/errors.js';
import type { CallContext, ClientLogLevel } from '../../backend/types.js';

/** What mcphost declares to a mounted server: all it can relay (each call's client is checked on use). */
export const RELAYED_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: true },
} as const;

type AskMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/**
 * The client's answer, handed to the server as the client gave it. The backend contract types it
 * loosely (an elicitation's content as any record, a sampled message's content as unknown), and the
 * client of the call answered under the SDK's own result schema; the SDK checks it again against
 * the method's result schema before sending it on.
 */
function wire<M extends AskMethod>(answer: object): HandlerResultTypeMap[M] {
  return answer as HandlerResultTypeMap[M];
}

export class AskRouter {
  private readonly calls = new Map<number, CallContext>();
  private next = 0;

  constructor(private readonly label: () => string) {}

  /** Runs `work` as a call of `ctx`'s client: the server's questions meanwhile go to that client. */
  async during<T>(ctx: CallContext, work: () => Promise<T>): Promise<T> {
    const id = this.next++;
    this.calls.set(id, ctx);
    try {
      return await work();
    } finally {
      this.calls.delete(id);
    }
  }

  /** Installs the relaying handlers on a client about to connect. */
  install(client: Client): void {
    client.setRequestHandler('elicitation/create', (request) => this.route('elicitation/create', (ctx) => ctx.elicit(request.params)));
    client.setRequestHandler('sampling/createMessage', (request) =>
      this.route('sampling/createMessage', (ctx) => ctx.sample(request.params)),
    );
    client.setRequestHandler('roots/list', () => this.route('roots/list', (ctx) => ctx.listRoots()));
    client.setNotificationHandler('notifications/message', (n) => this.log(n.params));
  }

  /** A log message of the server goes to the client of the call in flight (same rule as requests; else dropped). */
  private log(params: { level: string; data?: unknown; logger?: string }): void {
    const calls = [...this.calls.values()];
    if (calls.length === 0 || new Set(calls.map((c) => c.client.id)).size > 1) return;
    calls[calls.length - 1]!.log(params.level as ClientLogLevel, params.data, params.logger);
  }

  private async route<M extends AskMethod>(method: M, ask: (ctx: CallContext) => Promise<object>): Promise<HandlerResultTypeMap[M]> {
    const calls = [...this.calls.values()];
    if (calls.length === 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `mcphost relays ${method} from ${this.label()} only while a client's call to it is in progress, and none is`,
      );
    }
    if (new Set(calls.map((c) => c.client.id)).size > 1) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `mcphost cannot tell which of its clients ${method} from ${this.label()} is for: calls of several clients are in progress (a 2025-era request does not name its call)`,
      );
    }
    const ctx = calls[calls.length - 1]!;
    try {
      return wire<M>(await ask(ctx));
    } catch (error) {
      if (isRequestError(error)) throw new ProtocolError(error.code, error.message, error.data);
      throw error;
    }
  }
}

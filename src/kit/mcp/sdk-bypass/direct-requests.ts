// Requests written straight onto a stdio child's pipe, next to the SDK client that owns the
// connection. Protocol.request (core-internal/src/shared/protocol.ts) sets up, per request, a
// timeout timer, an abort listener, progress and response maps and a promise chain, and checks the
// answer's shape with zod twice (is it a result, is it an error) before the result schema; here a
// request gets a string id (the SDK client numbers its own, so the two never meet), its answer and
// its progress are taken off the line before the SDK client sees them, and a cancellation is
// announced to the server as the SDK client does (notifications/cancelled with the reason). What
// the caller gets is what Protocol.request gives for the same answer: the result, a ProtocolError
// for a JSON-RPC error, and SdkError(ConnectionClosed) when the connection ends first. Two
// differences, both unseen by the registry: a cancelled request rejects with the signal's reason
// itself (the SDK wraps one that is not an SdkError in SdkError(RequestTimeout); the registry's
// bounded call answers from its own signal and never reads this rejection), and no timer is set
// (the deadline is the caller's signal: the registry's bounded call always sets one).
import { ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/client';

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface DirectRequestOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/** Ids of direct requests: strings, which the SDK client (numbers) never uses. */
const ID_PREFIX = 'mcphost-';

export class DirectRequests {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(private readonly write: (message: JSONRPCMessage) => Promise<void>) {}

  request(method: string, params: Record<string, unknown>, options: DirectRequestOptions = {}): Promise<unknown> {
    const { signal, onprogress } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = `${ID_PREFIX}${this.next++}`;
    const message = {
      jsonrpc: '2.0',
      id,
      method,
      // The id is the progress token, as the SDK client makes it.
      params: onprogress ? { ...params, _meta: { ...(params._meta as object | undefined), progressToken: id } } : params,
    } as JSONRPCMessage;
    return new Promise<unknown>((resolve, reject) => {
      const call: Pending = { resolve, reject, onprogress, signal };
      if (signal) {
        call.onAbort = () => {
          if (!this.pending.delete(id)) return;
          void this.write({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(signal.reason) },
          } as JSONRPCMessage).catch(() => undefined);
          reject(signal.reason);
        };
        signal.addEventListener('abort', call.onAbort, { once: true });
      }
      this.pending.set(id, call);
      this.write(message).catch((error: unknown) => {
        if (this.take(id)) reject(error);
      });
    });
  }

  /** The request `id` is answered: no longer pending, its abort listener gone. */
  private take(id: string): Pending | undefined {
    const call = this.pending.get(id);
    if (!call) return undefined;
    this.pending.delete(id);
    if (call.onAbort) call.signal!.removeEventListener('abort', call.onAbort);
    return call;
  }

  /**
   * Takes a message meant for a direct request (its response, or progress on its token) off the
   * line: true when it was one. Anything else is for the SDK client.
   */
  intercept(message: JSONRPCMessage): boolean {
    if ('id' in message && !('method' in message)) {
      if (typeof message.id !== 'string' || !message.id.startsWith(ID_PREFIX)) return false;
      const call = this.take(message.id);
      // A late answer (the request was cancelled) is dropped, as the SDK client drops one.
      if (!call) return true;
      if ('result' in message) call.resolve(message.result);
      else if ('error' in message) call.reject(ProtocolError.fromError(message.error.code, message.error.message, message.error.data));
      return true;
    }
    if (this.pending.size > 0 && 'method' in message && message.method === 'notifications/progress' && !('id' in message)) {
      const { progressToken, ...progress } = (message.params ?? {}) as Record<string, unknown>;
      if (typeof progressToken !== 'string' || !progressToken.startsWith(ID_PREFIX)) return false;
      this.pending.get(progressToken)?.onprogress?.(progress as unknown as Progress);
      return true;
    }
    return false;
  }

  /** The connection ended: every request still waiting fails as the SDK client's would. */
  closed(): void {
    for (const id of [...this.pending.keys()]) this.take(id)?.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}

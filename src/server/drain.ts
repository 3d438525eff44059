// Shutting an HTTP host down as nginx's graceful stop does: stop accepting, let the requests in
// flight finish within a deadline, answer the ones still running (503, if nothing was sent yet),
// and only then close the connections. A request that arrives on a kept-alive connection meanwhile
// is refused with 503 and `Connection: close`. Streams that never end by themselves (a 2025-era GET
// stream, a 2026-era subscriptions/listen) are not waited for.
import type { ServerResponse } from 'node:http';

interface InFlight {
  /** The JSON-RPC id of the request, once its body was read (for the answer at the deadline). */
  id?: string | number | null;
}

export class Drain {
  private readonly inFlight = new Map<ServerResponse, InFlight>();
  private whenIdle?: () => void;
  private closing = false;

  get draining(): boolean {
    return this.closing;
  }

  /** A request to wait for at shutdown, until its response ends. */
  track(res: ServerResponse): void {
    this.inFlight.set(res, {});
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.whenIdle?.();
    });
  }

  /** The request's JSON-RPC id, or that it is a stream shutdown need not wait for (`stream`). */
  note(res: ServerResponse, what: { id?: string | number | null; stream?: boolean }): void {
    if (what.stream) {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.whenIdle?.();
      return;
    }
    const entry = this.inFlight.get(res);
    if (entry) entry.id = what.id;
  }

  /**
   * Waits up to `ms` for the requests in flight, then answers those still running with `answer`:
   * a 503 when nothing was sent yet, else as the last event of the SSE stream already begun (a
   * client would otherwise wait on its call for ever). Later requests see `draining`.
   */
  async drain(ms: number, message: string): Promise<void> {
    this.closing = true;
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.whenIdle = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
    }
    for (const [res, entry] of this.inFlight) {
      const error = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: entry.id ?? null });
      if (!res.headersSent) {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
        res.end(error);
      } else if (entry.id !== undefined) {
        // Begun and not ended: the SDK's SSE answer to a POST (a JSON answer is sent whole).
        res.end(`event: message\ndata: ${error}\n\n`);
      } else res.end();
    }
    this.inFlight.clear();
  }
}

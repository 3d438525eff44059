/**
 * A request's cancellation, read as the AbortSignal it stands for by those that take it: boundedCall
 * (`aborted`, `reason`, an 'abort' listener) and the SDK's request for the progress-confirming ping
 * (the same). The SDK makes an AbortController per request (Protocol._onrequest); this is cheaper to
 * make (docs/performance.md), and the handler still gets a real signal (boundedCall's own).
 */
export class Cancellation {
  aborted = false;
  reason: unknown;
  private listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}

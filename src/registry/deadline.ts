// A bounded run for reads and prompts (tool calls have their own in invoke.ts): the work gets a
// signal aborted by the caller, by shutdown or when its time is up, and the caller is answered at
// that moment even if the work never settles.
import { clampTimeout } from './limits.js';
import { TimeoutError } from './errors.js';

export async function withDeadline<T>(
  what: string,
  ms: number,
  signals: Array<AbortSignal | undefined>,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeoutMs = clampTimeout(ms);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new TimeoutError(what, timeoutMs)), timeoutMs);
  const signal = AbortSignal.any([timeout.signal, ...signals.filter((s): s is AbortSignal => s !== undefined)]);
  try {
    return await new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      Promise.resolve()
        .then(() => work(signal))
        .then(resolve, reject);
    });
  } finally {
    clearTimeout(timer);
  }
}

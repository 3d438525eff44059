// The one sequence every call into a backend goes through (tools, reads, prompts, completions):
// a deadline, the caller's cancellation and shutdown, the backend's lazy start, the handler's
// context, and the size cap of its answer. The caller is answered the moment any of them ends the
// call, even if the handler never settles. Each kind says only how its answer is shaped.
import type { CallContext, InputRequiredResult, ProgressUpdate, TraceContext } from '../backend/types.js';
import { isInputRequired } from '../backend/result.js';
import type { ClientChannel, InputBroker } from './asks.js';
import type { BackendHost } from './backend-host.js';
import type { HostClient } from './clients.js';
import { ResultTooLargeError, TimeoutError } from './errors.js';
import { capText, clampTimeout, MAX_RESULT_DEPTH, measure, type Limits } from './limits.js';
import { asRemoteTask, type RemoteTaskHandle } from '../backend/remote-task.js';
import { deadline, whenAborted } from './call-timers.js';

export interface BoundedCall {
  /** The call in a timeout message ("tool x", "reading uri"). */
  what: string;
  host: BackendHost;
  timeoutMs: number;
  shutdown: AbortSignal;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** What a cancellation by the caller rejects with (default: the signal's reason). */
  cancelled?: (reason: unknown) => unknown;
  onProgress?: (update: ProgressUpdate) => void;
  client: HostClient;
  channel?: ClientChannel;
  broker?: InputBroker;
  trace?: TraceContext;
  /** false: the backend is not started for this call (completions use what it has). */
  start?: boolean;
  /** The answer cap, and the call's name in a too-large error; none: no cap (completions). */
  cap?: { limits: Limits; label: string };
}

/** What a call answered: its shaped answer, questions for the client, or a mounted server's task. */
export type Answer<R> = { answer: R } | { asks: InputRequiredResult } | { task: RemoteTaskHandle };

export async function boundedCall<R>(
  call: BoundedCall,
  work: (ctx: CallContext) => unknown,
  shape: (value: unknown) => R,
): Promise<Answer<R>> {
  const timeoutMs = clampTimeout(call.timeoutMs);
  const controller = new AbortController();
  // The handler races `aborted`, which the first of timeout, cancellation and shutdown rejects
  // here, with the reason the signal gets (no listener on the signal: one less per call).
  let stop!: (reason: unknown) => void;
  const aborted = new Promise<never>((_, reject) => (stop = reject));
  aborted.catch(() => undefined);
  const abort = (reason: unknown) => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    stop(controller.signal.reason);
  };
  const stopTimer = deadline(timeoutMs, () => abort(new TimeoutError(call.what, timeoutMs)));
  const onCancel = () => abort(call.cancelled ? call.cancelled(call.signal?.reason) : call.signal?.reason);
  const onShutdown = () => abort(call.shutdown.reason);
  call.signal?.addEventListener('abort', onCancel, { once: true });
  const stopShutdown = whenAborted(call.shutdown, onShutdown);
  if (call.shutdown.aborted) onShutdown();
  if (call.signal?.aborted) onCancel();
  let lastProgress = -Infinity;
  const progress = (update: ProgressUpdate) => {
    // Progress must increase with each notification; late or repeated reports are dropped.
    if (controller.signal.aborted || !call.onProgress || !(update.progress > lastProgress)) return;
    lastProgress = update.progress;
    call.onProgress(update.message === undefined ? update : { ...update, message: capText(update.message, 1024) });
  };
  try {
    // Cancelled (or timed out) before it started: the handler is not started at all.
    if (controller.signal.aborted) throw controller.signal.reason;
    const { host } = call;
    const ctx = host.callContext(controller.signal, progress, call.client, call.channel, call.broker, call.trace);
    // The handler starts a microtask later, not at once: the SDK's HTTP transport links a request to
    // its response stream only after the dispatch that runs this has returned, so what a handler
    // sent before its first await (the conformance fixture's progress 0) was lost.
    const running =
      host.state === 'running' || call.start === false
        ? Promise.resolve().then(() => work(ctx))
        : host.ensureStarted().then(() => work(ctx));
    running.catch(() => undefined);
    const value = await Promise.race([running, aborted]);
    const task = asRemoteTask(value);
    if (task) return { task };
    if (isInputRequired(value)) return { asks: value };
    if (!call.cap) return { answer: shape(value) };
    // The raw value is measured first, so a huge one never becomes JSON text.
    tooLarge(value, call.cap);
    const answer = shape(value);
    // A value already in shape (a relayed result) was measured just now.
    if ((answer as unknown) !== value) tooLarge(answer, call.cap);
    return { answer };
  } finally {
    stopTimer();
    call.signal?.removeEventListener('abort', onCancel);
    stopShutdown();
  }
}

function tooLarge(value: unknown, cap: { limits: Limits; label: string }): void {
  const oversize = tooLargeResult(value, cap.limits);
  if (oversize) throw new ResultTooLargeError(`${cap.label}: ${oversize}`);
}

/** "result too large (N bytes, cap M): …" for an answer above the cap, else undefined. */
function tooLargeResult(value: unknown, limits: Limits): string | undefined {
  const cap = limits.resultBytes;
  // Counting stops a little past the cap: enough to name the size of one huge string exactly.
  const stop = cap * 4;
  const { bytes, complete, depth } = measure(value, stop);
  if (depth > MAX_RESULT_DEPTH) return `result nests deeper than ${MAX_RESULT_DEPTH} levels: it cannot be sent; flatten it`;
  if (bytes <= cap) return undefined;
  const size = complete ? bytes.toLocaleString('en') : `more than ${bytes.toLocaleString('en')}`;
  return `result too large (${size} bytes, cap ${cap.toLocaleString('en')}): narrow the request (a smaller range, fewer results, a more specific query), or raise limits.resultBytes`;
}

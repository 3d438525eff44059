// The deadlines and shutdown hooks of the calls in flight, shared. Each bounded call set a timer of
// its own and a listener on the host's shutdown signal, which in a relayed call's path cost as much
// as a good part of mcphost's own work (docs/performance.md): the timer list of its duration,
// emptied when the last call ended, was made again for the next, with a libuv timer start. Here one
// timer is armed for the earliest deadline and one listener is set on each shutdown signal; a call
// adds and removes a map entry. The timer holds the process open only while some call waits on it, as each
// call's own timer did.

interface Pending {
  at: number;
  fire(): void;
}

const pending = new Set<Pending>();
let timer: NodeJS.Timeout | undefined;
let armedAt = Number.POSITIVE_INFINITY;

function arm(at: number): void {
  clearTimeout(timer);
  armedAt = at;
  timer = setTimeout(expire, Math.max(0, at - Date.now()));
}

function expire(): void {
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  const due: Pending[] = [];
  for (const entry of pending) {
    if (entry.at <= now) due.push(entry);
    else if (entry.at < next) next = entry.at;
  }
  for (const entry of due) pending.delete(entry);
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  for (const entry of due) entry.fire();
}

/** Runs `fire` after `ms` (at most setTimeout's largest delay) unless the returned function is called first. */
export function deadline(ms: number, fire: () => void): () => void {
  const entry: Pending = { at: Date.now() + ms, fire };
  pending.add(entry);
  if (entry.at < armedAt) arm(entry.at);
  else if (pending.size === 1) timer?.ref();
  return () => {
    pending.delete(entry);
    if (pending.size === 0) timer?.unref();
  };
}

const hooks = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `fire` once when `signal` aborts (one listener per signal however many calls wait); returns how to stop waiting. */
export function whenAborted(signal: AbortSignal, fire: () => void): () => void {
  let set = hooks.get(signal);
  if (!set) {
    const waiting = new Set<() => void>();
    set = waiting;
    hooks.set(signal, waiting);
    signal.addEventListener(
      'abort',
      () => {
        const all = [...waiting];
        waiting.clear();
        for (const f of all) f();
      },
      { once: true },
    );
  }
  set.add(fire);
  const registered = set;
  return () => void registered.delete(fire);
}

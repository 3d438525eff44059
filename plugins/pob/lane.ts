// One call at a time, in arrival order. A call whose signal aborts while it waits leaves the line
// without running (the calls behind it still wait for the ones before it).
export class Lane {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const before = this.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.tail = Promise.all([before, mine]).then(() => undefined);
    const turn = signal ? Promise.race([before, aborted(signal)]) : before;
    return turn.then(task).finally(done);
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

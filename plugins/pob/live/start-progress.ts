// Progress while PoB starts (3-4 s): PoB logs the same steps whichever server runs it (on stderr
// under mcphost's server, on stdout under the fork's), so those lines mark how far it got.
import type { ProgressUpdate } from '../../../src/backend/index.js';

const STEPS: Array<[RegExp, number, string]> = [
  [/^Loading main script/, 5, 'loading Path of Building'],
  [/^Loading passive tree data/, 30, 'loading passive tree data'],
  [/^Processing tree/, 45, 'processing the passive tree'],
  [/^Startup time/, 60, 'loading item data'],
  [/^Uniques loaded/, 85, 'unique items loaded'],
  [/^Rares loaded/, 95, 'rare item templates loaded'],
];

type Listener = (update: ProgressUpdate) => void;

export class StartProgress {
  private readonly listeners = new Set<Listener>();
  private reached = 0;
  private message = 'starting Path of Building';

  /** A fresh start begins: later lines count from zero. */
  reset(): void {
    this.reached = 0;
    this.message = 'starting Path of Building';
  }

  /** Reports to `listener` until the returned function is called; it hears where the start is at once. */
  watch(listener: Listener): () => void {
    this.listeners.add(listener);
    listener({ progress: this.reached, total: 100, message: this.message });
    return () => this.listeners.delete(listener);
  }

  /** A line PoB printed while starting. */
  feed(line: string): void {
    const step = STEPS.find(([pattern]) => pattern.test(line));
    if (!step || step[1] <= this.reached) return;
    this.emit(step[1], step[2]);
  }

  ready(): void {
    if (this.reached < 100) this.emit(100, 'Path of Building is ready');
  }

  private emit(progress: number, message: string): void {
    this.reached = progress;
    this.message = message;
    for (const listener of this.listeners) listener({ progress, total: 100, message });
  }
}

// A long-lived child process that speaks JSON lines on stdio (spawned through execa): a ready
// banner line first, then one response line per request, correlated by id. One request is in
// flight at a time and the rest wait in a queue. A request that times out kills the child (its
// state is unknown) and the next request starts a fresh one; a child that exits mid-request fails
// that request with its exit code and last stderr lines. This is the mechanism only: when to
// replace a child (after N requests, above a memory limit) is the caller's policy.
import type { RequestOptions } from './peer.js';
import { PeerError } from './peer.js';
import { spawnChild, stopChild, type Child } from './child.js';
import { ProcessError } from './process-error.js';
import { residentBytes } from './resident.js';
import {
  normalizeProcessOptions,
  type JsonLinesProcessOptions,
  type JsonMessage,
  type NormalizedProcessOptions,
} from './process-options.js';

export interface ProcessStats {
  /** Children spawned so far: a new number means a new child (with none of the old one's state). */
  starts: number;
  requests: number;
  timeouts: number;
  crashes: number;
}

interface Task {
  message: JsonMessage;
  timeoutMs: number;
  resolve(value: JsonMessage): void;
  reject(error: Error): void;
  settled: boolean;
}

export class JsonLinesProcess {
  private readonly options: NormalizedProcessOptions;
  private child?: Child;
  private starting?: Promise<Child>;
  private readonly queue: Task[] = [];
  private busy = false;
  private closed = false;
  private nextId = 1;
  readonly stats: ProcessStats = { starts: 0, requests: 0, timeouts: 0, crashes: 0 };

  constructor(options: JsonLinesProcessOptions) {
    this.options = normalizeProcessOptions(options);
  }

  get running(): boolean {
    return this.child !== undefined && !this.child.exited;
  }

  get pid(): number | undefined {
    return this.running ? this.child!.proc.pid : undefined;
  }

  get banner(): JsonMessage | undefined {
    return this.running ? this.child!.banner : undefined;
  }

  /** Requests waiting behind the one in flight. */
  get queued(): number {
    return this.queue.length;
  }

  /** Resident memory of the running child in bytes, when the platform tells. */
  async rss(): Promise<number | undefined> {
    const pid = this.pid;
    return pid === undefined ? undefined : residentBytes(pid);
  }

  /** Starts the child (if it is not running) and resolves with its banner; `timeoutMs` overrides `startTimeoutMs` for this start. */
  async start(timeoutMs?: number): Promise<JsonMessage> {
    if (this.closed) throw this.closedError();
    return (await this.ensureChild(timeoutMs)).banner!;
  }

  /** Sends `message` (an `id` is added) once the requests before it are answered. */
  request(message: JsonMessage, options: RequestOptions = {}): Promise<JsonMessage> {
    if (this.closed) return Promise.reject(this.closedError());
    const { signal } = options;
    return new Promise<JsonMessage>((resolve, reject) => {
      const settle = (fn: () => void) => {
        if (task.settled) return;
        task.settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const task: Task = {
        message,
        timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs,
        settled: false,
        resolve: (value) => settle(() => resolve(value)),
        reject: (error) => settle(() => reject(error)),
      };
      // A queued request is dropped; one in flight keeps its slot until the child answers or
      // times out, so the next request never overlaps it.
      const onAbort = () =>
        task.reject(
          new ProcessError('ABORTED', `${this.options.name}: request aborted`, {
            command: this.options.commandLine,
            cause: signal?.reason,
          }),
        );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const task = this.queue.shift();
    if (!task) return;
    if (task.settled) return this.pump();
    this.busy = true;
    void this.execute(task).finally(() => {
      this.busy = false;
      this.pump();
    });
  }

  private async execute(task: Task): Promise<void> {
    try {
      const child = await this.ensureChild();
      if (task.settled) return;
      const answer = await this.send(child, task.message, task.timeoutMs);
      this.stats.requests++;
      task.resolve(answer);
    } catch (error) {
      task.reject(error as Error);
    }
  }

  private async send(child: Child, message: JsonMessage, timeoutMs: number): Promise<JsonMessage> {
    try {
      return await child.peer.request({ ...message, id: this.nextId++ }, { timeoutMs });
    } catch (error) {
      if (!(error instanceof PeerError && error.code === 'TIMEOUT')) throw error;
      this.stats.timeouts++;
      const { name, commandLine } = this.options;
      const what = typeof message.action === 'string' ? ` to ${message.action}` : '';
      this.options.logger.warn(`${name}: no answer${what} within ${timeoutMs} ms; killing pid ${child.proc.pid}`);
      void this.stopChild(child, true);
      throw new ProcessError(
        'TIMEOUT',
        `${name} gave no answer${what} within ${timeoutMs} ms; it was stopped and starts afresh on the next call`,
        {
          command: commandLine,
          stderr: [...child.stderr],
        },
      );
    }
  }

  private ensureChild(timeoutMs = this.options.startTimeoutMs): Promise<Child> {
    if (this.child && !this.child.exited) return Promise.resolve(this.child);
    this.starting ??= this.spawn(timeoutMs).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async spawn(timeoutMs: number): Promise<Child> {
    this.stats.starts++;
    const child = await spawnChild(this.options, timeoutMs, (exited, crashed, how) => {
      if (this.child === exited) this.child = undefined;
      if (!crashed) return;
      this.stats.crashes++;
      this.options.logger.warn(`${this.options.name} exited with ${how}`);
    });
    this.child = child;
    return child;
  }

  private stopChild(child: Child | undefined, kill = false, graceMs = this.options.stopGraceMs): Promise<void> {
    if (!child) return Promise.resolve();
    if (this.child === child) this.child = undefined;
    return stopChild(child, graceMs, kill);
  }

  /**
   * Kills the running child at once (SIGKILL), whatever it is doing: the request in flight fails,
   * and the next request starts a new child (a child still starting is not touched). For work its
   * caller cancelled, which must not hold the child.
   */
  async kill(): Promise<void> {
    await this.stopChild(this.child, true);
  }

  /** Stops the child (if any); the next request starts a new one. Safe to call any number of times. */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await this.stopChild(this.child);
  }

  /**
   * Stops the child and refuses every later request; queued requests fail. Meant for shutdown, so
   * the child gets a shorter grace (default 500 ms) before SIGTERM. Idempotent.
   */
  async close(graceMs = Math.min(500, this.options.stopGraceMs)): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(this.closedError());
    await this.starting?.catch(() => undefined);
    await this.stopChild(this.child, false, graceMs);
  }

  private closedError(): ProcessError {
    return new ProcessError('CLOSED', `${this.options.name} is shut down`, { command: this.options.commandLine });
  }
}

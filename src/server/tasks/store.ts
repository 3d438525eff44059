// Tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663): a tool call that runs on after
// its request was answered with a CreateTaskResult; the client polls `tasks/get` (status, and the
// result inlined once done), answers its questions with `tasks/update` and stops it with
// `tasks/cancel`. A task's id is random and unguessable, and a task is its caller's (callerKey): for
// any other caller it does not exist, whoever learns its id. A task a mounted server created is kept
// here as a relay (`remote`). Its id names the replica that runs it (held-ids.ts): one that was
// lost with its replica (stopped, or restarted since) is answered as failed, saying so, not as unknown.
import { randomBytes } from 'node:crypto';
import type { InputRequest, ProgressUpdate, ToolResult } from '../../backend/types.js';
import { CancelledError } from '../../registry/errors.js';
import type { InputBroker } from '../../registry/asks.js';
import { measure } from '../../registry/limits.js';
import { HeldIds, type Holder } from '../held-ids.js';

/** A call running for a task: how it ends, its open questions, and how to stop it. */
export interface TaskWork {
  outcome: Promise<TaskEnd>;
  broker: InputBroker;
  controller: AbortController;
}

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * `_meta` key of a running task's last progress (`{ progress, total? }`) in its `tasks/get` answer:
 * SEP-2663 carries only a status message, and a client drawing a bar needs the numbers the tool reported.
 */
export const TASK_PROGRESS_META_KEY = 'mcphost/progress';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** What a task ends with: a tool result (an error result included), or a protocol-level failure. */
export type TaskEnd = { result: ToolResult } | { error: TaskError };

/** A task a mounted server runs: every request about it goes there. */
export interface RemoteTask {
  get(): Promise<Record<string, unknown>>;
  update(inputResponses: Record<string, unknown>): Promise<void>;
  cancel(): Promise<void>;
}

export interface TaskOptions {
  /** How long a finished task stays readable (default one hour). */
  ttlMs?: number;
  /** What clients are told to wait between polls (default 500 ms). */
  pollIntervalMs?: number;
  /** Tasks kept at once; past it the oldest finished one goes (default 1000). */
  max?: number;
  /** What finished tasks' results may hold together; past it the oldest finished ones go (default 128 MiB). */
  maxResultBytes?: number;
  /** Mints task ids (the host's: they name its replica). */
  ids?: HeldIds;
  now?: () => number;
}

interface Task {
  id: string;
  /** The caller it belongs to (callerKey of who created it). */
  owner: string;
  status: TaskStatus;
  createdAt: number;
  lastUpdatedAt: number;
  statusMessage?: string;
  /** The last progress the call reported (numbers; the message is statusMessage). */
  progress?: { progress: number; total?: number };
  end?: TaskEnd;
  run?: TaskWork;
  remote?: RemoteTask;
  /** The size of its end (result or error), counted once it finished. */
  bytes?: number;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export class TaskStore {
  private readonly tasks = new Map<string, Task>();
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly max: number;
  private readonly maxResultBytes: number;
  /** What the kept finished tasks' ends hold together. */
  private resultBytes = 0;
  private readonly now: () => number;
  private readonly ids: HeldIds;

  constructor(options: TaskOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.max = options.max ?? 1000;
    this.maxResultBytes = options.maxResultBytes ?? 128 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.ids = options.ids ?? new HeldIds(randomBytes(32));
  }

  /** Whether another task fits (finished ones past their time are dropped first). */
  hasRoom(): boolean {
    this.sweep();
    if (this.tasks.size < this.max) return true;
    const oldest = [...this.tasks.values()].find((t) => TERMINAL.has(t.status));
    if (oldest) this.drop(oldest);
    return this.tasks.size < this.max;
  }

  /** A task for a call already running here; the CreateTaskResult to answer with. */
  start(run: TaskWork, owner: string): Record<string, unknown> {
    const task = this.add({ run, owner });
    void run.outcome.then(
      (end) => this.finish(task, end),
      (error: unknown) => this.finish(task, { error: { code: -32603, message: (error as Error)?.message ?? String(error) } }),
    );
    return this.createResult(task);
  }

  /** A task a mounted server created: `created` is its CreateTaskResult. Answers ours, with our id. */
  relay(remote: RemoteTask, created: Record<string, unknown>, owner: string): Record<string, unknown> {
    const task = this.add({ remote, owner, status: (created.status as TaskStatus | undefined) ?? 'working' });
    return { ...created, taskId: task.id };
  }

  private add(fields: Partial<Task> & { owner: string }): Task {
    const at = this.now();
    const task: Task = { id: this.ids.mint(fields.owner), status: 'working', createdAt: at, lastUpdatedAt: at, ...fields };
    this.tasks.set(task.id, task);
    return task;
  }

  private finish(task: Task, end: TaskEnd): void {
    if (TERMINAL.has(task.status)) return;
    task.end = end;
    task.status = 'result' in end ? 'completed' : 'failed';
    task.lastUpdatedAt = this.now();
    task.bytes = measure(end).bytes;
    this.resultBytes += task.bytes;
    // Bounded by bytes as well as by count: 1,000 results of 8 MiB would be 8 GB held for an hour.
    // The oldest finished go first; the one that just finished stays, whatever its size.
    for (const other of this.tasks.values()) {
      if (this.resultBytes <= this.maxResultBytes) break;
      if (other !== task && other.bytes !== undefined) this.drop(other);
    }
  }

  private drop(task: Task): void {
    this.tasks.delete(task.id);
    this.resultBytes -= task.bytes ?? 0;
    task.bytes = undefined;
  }

  /** Notes progress (the last message is the task's statusMessage). */
  progress(id: string, update: ProgressUpdate | undefined): void {
    const task = this.tasks.get(id);
    if (!task || update === undefined || TERMINAL.has(task.status)) return;
    if (update.message !== undefined) task.statusMessage = update.message;
    task.progress = { progress: update.progress, ...(update.total !== undefined && { total: update.total }) };
    task.lastUpdatedAt = this.now();
  }

  /** The DetailedTask `tasks/get` answers; undefined for an id not known (or expired, or another caller's). */
  async get(id: string, caller: string): Promise<Record<string, unknown> | undefined> {
    const task = this.known(id, caller);
    if (!task) return this.lost(id, caller);
    if (task.remote) {
      const detailed = await task.remote.get();
      if (typeof detailed.status === 'string' && detailed.status !== task.status) {
        task.status = detailed.status as TaskStatus;
        task.lastUpdatedAt = this.now();
      }
      return { ...detailed, taskId: task.id };
    }
    const asked = task.run && !TERMINAL.has(task.status) ? task.run.broker.pending() : {};
    const waiting = Object.keys(asked).length > 0;
    const status: TaskStatus = TERMINAL.has(task.status) ? task.status : waiting ? 'input_required' : 'working';
    return {
      ...this.info(task, status),
      ...(waiting && { inputRequests: asked as Record<string, InputRequest> }),
      ...(status === 'completed' && task.end && 'result' in task.end && { result: task.end.result }),
      ...(status === 'failed' && task.end && 'error' in task.end && { error: task.end.error }),
    };
  }

  /** Delivers answers to a task's questions; false for an unknown id (or another caller's). */
  async update(id: string, responses: Record<string, unknown>, caller: string): Promise<boolean> {
    const task = this.known(id, caller);
    // A lost task has ended: answers to it change nothing, as for any finished task.
    if (!task) return this.lost(id, caller) !== undefined;
    if (task.remote) await task.remote.update(responses);
    else if (task.run && task.run.broker.answer(responses) > 0) task.lastUpdatedAt = this.now();
    return true;
  }

  /** Stops a task (a finished one stays as it is); false for an unknown id (or another caller's). */
  async cancel(id: string, caller: string): Promise<boolean> {
    const task = this.known(id, caller);
    if (!task) return this.lost(id, caller) !== undefined;
    if (task.remote) {
      await task.remote.cancel();
      return true;
    }
    if (TERMINAL.has(task.status)) return true;
    task.status = 'cancelled';
    task.lastUpdatedAt = this.now();
    task.run?.controller.abort(new CancelledError('the task was cancelled'));
    return true;
  }

  /** Cancels every running task (shutdown). */
  close(): void {
    for (const task of this.tasks.values()) task.run?.controller.abort(new CancelledError('mcphost is shutting down'));
  }

  private known(id: string, caller: string): Task | undefined {
    this.sweep();
    const task = this.tasks.get(id);
    return task?.owner === caller ? task : undefined;
  }

  /**
   * A task of `caller` this host does not hold, lost with the replica (or the earlier run of this
   * one) that ran it: failed, saying so. Undefined for an id of this run (expired or dropped) or not
   * handed to `caller`. Another replica's task reaches this host only once the balancer found that
   * replica unreachable (held-elsewhere.ts sends it there otherwise).
   */
  private lost(id: string, caller: string): Record<string, unknown> | undefined {
    const holder = this.ids.holder(id, caller);
    if (!holder || holder.where === 'here') return undefined;
    const at = new Date(this.now()).toISOString();
    return {
      taskId: id,
      status: 'failed',
      statusMessage: lostMessage(holder),
      createdAt: new Date(holder.createdAt).toISOString(),
      lastUpdatedAt: at,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      error: { code: -32603, message: lostMessage(holder) },
    };
  }

  private createResult(task: Task): Record<string, unknown> {
    return { resultType: 'task', ...this.info(task, task.status) };
  }

  private info(task: Task, status: TaskStatus): Record<string, unknown> {
    return {
      taskId: task.id,
      status,
      ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
      ...(task.progress && !TERMINAL.has(status) && { _meta: { [TASK_PROGRESS_META_KEY]: task.progress } }),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  /** Finished tasks are kept `ttlMs` after they last changed; running ones until they end. */
  private sweep(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const task of this.tasks.values()) {
      // A relayed task whose server went quiet for that long is dropped too.
      if ((TERMINAL.has(task.status) || task.remote) && task.lastUpdatedAt < cutoff) this.drop(task);
    }
  }
}

function lostMessage(holder: Exclude<Holder, { where: 'here' }>): string {
  const which = holder.replica === undefined ? 'mcphost' : `replica ${holder.replica}`;
  const what =
    holder.where === 'restarted' ? `${which} restarted since it started this task` : `${which}, which ran this task, cannot be reached`;
  return `${what}; what it was doing is lost: call the tool again`;
}

// A mounted server may answer a tools/call with a task of its own (SEP-2663's CreateTaskResult).
// Its tool handler returns this marker instead of a result; the server layer then keeps the task
// as a relay (tasks/get, tasks/update and tasks/cancel go to that server) under an id of its own.
export interface RemoteTaskHandle {
  /** The server's CreateTaskResult. */
  created: Record<string, unknown>;
  get(): Promise<Record<string, unknown>>;
  update(inputResponses: Record<string, unknown>): Promise<void>;
  cancel(): Promise<void>;
}

const REMOTE_TASK = Symbol.for('mcphost.RemoteTask');

export function remoteTask(handle: RemoteTaskHandle): { [REMOTE_TASK]: RemoteTaskHandle } {
  return { [REMOTE_TASK]: handle };
}

export function asRemoteTask(value: unknown): RemoteTaskHandle | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<symbol, RemoteTaskHandle | undefined>)[REMOTE_TASK] : undefined;
}

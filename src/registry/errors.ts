// Failures the registry reports. Tool-level failures become error results, never throws; these
// classes are for what is not a tool result: start-up conflicts and unknown names.

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** An unknown tool, prompt or resource: a protocol error, not a tool error result. */
export class UnknownNameError extends Error {
  readonly kind: 'tool' | 'prompt' | 'resource' | 'plugin';
  readonly known: string[];
  constructor(kind: UnknownNameError['kind'], name: string, known: string[] = [], hint = '') {
    // The name is the caller's: quoted cut short, so a 4 MB name is not echoed back.
    super(`unknown ${kind} ${JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name)}${hint}`);
    this.name = 'UnknownNameError';
    this.kind = kind;
    this.known = known;
  }
}

/** An argument problem outside a tool call (prompt arguments): a protocol error -32602. */
export class InvalidParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParamsError';
  }
}

export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

export class CancelledError extends Error {
  constructor(reason?: unknown) {
    // An abort whose reason is already a CancelledError (tasks/cancel) is wrapped again on its way
    // to the tool; it keeps one "cancelled: " rather than one per layer.
    super(
      reason instanceof CancelledError
        ? reason.message
        : `cancelled${reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : ''}`,
    );
    this.name = 'CancelledError';
  }
}

export class ShutdownError extends Error {
  constructor() {
    super('mcphost is shutting down');
    this.name = 'ShutdownError';
  }
}

/** A resource read (or prompt) whose answer is above `limits.resultBytes`. */
export class ResultTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultTooLargeError';
  }
}

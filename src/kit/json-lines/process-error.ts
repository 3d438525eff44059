// What a JsonLinesProcess throws: a code a caller can act on, the command line, and what the child
// said last (exit code or signal, its last stderr lines, a not-ready banner's own error).
export type ProcessErrorCode = 'SPAWN' | 'EXITED' | 'START_TIMEOUT' | 'NOT_READY' | 'TIMEOUT' | 'ABORTED' | 'CLOSED';

export class ProcessError extends Error {
  readonly code: ProcessErrorCode;
  readonly command: string;
  readonly exitCode?: number;
  readonly signal?: string;
  /** The child's last stderr lines, oldest first. */
  readonly stderr: string[];
  /** The child's own message (a not-ready banner's error), when it gave one. */
  readonly detail?: unknown;
  constructor(
    code: ProcessErrorCode,
    message: string,
    info: { command: string; exitCode?: number; signal?: string; stderr?: string[]; detail?: unknown; cause?: unknown },
  ) {
    super(message, { cause: info.cause });
    this.name = 'ProcessError';
    this.code = code;
    this.command = info.command;
    this.exitCode = info.exitCode;
    this.signal = info.signal;
    this.stderr = info.stderr ?? [];
    this.detail = info.detail;
  }
}

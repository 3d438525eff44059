// The one logger. It writes to stderr only: in stdio mode stdout carries protocol and nothing else.
import { inspect } from 'node:util';
import type { Logger, LogLevel } from '../backend/types.js';
import { redact } from './secrets.js';

/** The host's levels: a backend logs at error…debug; `silent` (MCP_SERVER_LOG=silent) keeps stderr empty. */
export type HostLogLevel = LogLevel | 'silent';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const satisfies readonly HostLogLevel[];

const rank: Record<HostLogLevel, number> = { silent: -1, error: 0, warn: 1, info: 2, debug: 3 };

export interface LoggerOptions {
  level?: HostLogLevel;
  scope?: string;
  write?: (line: string) => void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const scope = options.scope ?? 'mcphost';
  const emit = (at: LogLevel) => (message: string, detail?: unknown) => {
    if (!logsAt(level, at)) return;
    const extra = detail === undefined ? '' : ` ${formatDetail(detail)}`;
    // A setting quoted in a message never shows a secret the config referenced (lib/secrets.ts).
    write(redact(`[${scope}] ${at}: ${message}${extra}\n`));
  };
  return {
    error: emit('error'),
    warn: emit('warn'),
    info: emit('info'),
    debug: emit('debug'),
    child: (child: string) => createLogger({ ...options, level, write, scope: `${scope}:${child}` }),
  };
}

/** Whether a host at `level` prints what is said at `at` (progress is said at info). */
export function logsAt(level: HostLogLevel, at: LogLevel): boolean {
  return rank[at] <= rank[level];
}

function formatDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.message;
  if (typeof detail === 'string') return detail;
  return inspect(detail, { depth: 4, breakLength: Infinity });
}

export function isLogLevel(value: unknown): value is HostLogLevel {
  return typeof value === 'string' && value in rank;
}

// The shapes of an upstream: where it is, how it is supervised, and what `status()` reports.
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { ListKind, Logger } from '../../backend/types.js';

/** Credentials an HTTP server is sent, beyond static headers (the host's OAuth sign-in, src/upstream/oauth). */
export interface UpstreamAuth {
  /** The SDK's AuthProvider: `token()` before every request, `onUnauthorized()` on a 401 (then the request is sent once more). */
  provider: AuthProvider;
  /** What a caller is told when the server still answers 401 after `onUnauthorized()`: why, and the fix. */
  refused(): string;
}

export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers?: Record<string, string>; auth?: UpstreamAuth };

export type UpstreamState = 'idle' | 'connecting' | 'connected' | 'down' | 'closed';

export interface UpstreamOptions {
  /** Used in messages: "upstream <name> unavailable: …". */
  name: string;
  target: UpstreamTarget;
  logger: Logger;
  /** The host's environment: a stdio child inherits only PATH, HOME and the like from it, plus `target.env`. */
  env?: NodeJS.ProcessEnv;
  /** Connecting and the initialize handshake (default 30 s). */
  connectTimeoutMs?: number;
  /** Requests without a caller deadline, e.g. listings (default 30 s). */
  requestTimeoutMs?: number;
  /** Restart backoff for a stdio child: first delay, cap, and healthy time that resets it (1 s, 30 s, 60 s). */
  backoff?: { initialMs?: number; maxMs?: number; resetAfterMs?: number };
  /** Grace for each shutdown step of a stdio child (default 500 ms). */
  graceMs?: number;
  /**
   * Message of the error a caller sees while the server is down; default "upstream <name>
   * unavailable: <reason>". `cause` tells an unreachable server from one that answered an error.
   */
  describeDown?(reason: string, cause?: unknown): string;
  /** How messages name a running server that answered an error: "<label> answered HTTP 500: …" (default "upstream <name>"). */
  label?: string;
  /** The server changed a list (its listChanged notifications), or came back after a restart. */
  onListChanged?(kind: ListKind): void;
  /** Try the old HTTP+SSE transport when a POST to the URL is refused with 4xx (default true). */
  sseFallback?: boolean;
  /** Reconnect (restart a child) in the background after the connection is lost, instead of on the next call. */
  keepAlive?: boolean;
  /** Largest message accepted from the server, in bytes (default 10 MiB): a stdio line, a JSON answer or one event. */
  maxMessageBytes?: number;
  /** Protocol revision spoken: 2025-11-25 (default), 2026-07-28, or auto (try 2026-07-28, fall back). */
  protocol?: 'auto' | '2025-11-25' | '2026-07-28';
  /** Relay the server's elicitation, sampling and roots requests to mcphost's clients (declaring those capabilities). */
  relayAsks?: boolean;
}

export interface UpstreamStatus {
  name: string;
  transport: 'stdio' | 'http';
  target: string;
  state: UpstreamState;
  /** The wire actually in use for HTTP: `streamable-http` or `sse`. */
  via?: string;
  lastError?: string;
  pid?: number;
  restarts: number;
  /** Milliseconds until the next restart is allowed (stdio, while down). */
  retryInMs?: number;
  server?: { name: string; version: string };
  protocolVersion?: string;
}

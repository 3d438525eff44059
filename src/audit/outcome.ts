// How a call ended, in the six kinds the audit trail and the per-client metrics keep apart (after
// metamcp's and Kuadrant's audit lines): refused by the client's policy or a limit, a transport
// failure (the backend unreachable, too slow, or the call cancelled), a JSON-RPC error the backend
// answered, an error result of the tool, or success.
import type { CallOutcome } from '../registry/result.js';
import type { Identity } from '../registry/identity.js';

export type OutcomeKind = 'policy' | 'limit' | 'transport' | 'jsonrpc' | 'tool_error' | 'success';

export function outcomeKind(outcome: CallOutcome): OutcomeKind {
  const kind = outcome.error?.kind;
  if (kind === undefined) return outcome.result.isError ? 'tool_error' : 'success';
  if (kind === 'policy' || kind === 'limit') return kind;
  if (kind === 'unavailable' || kind === 'timeout' || kind === 'cancelled') return 'transport';
  if (kind === 'refused') return 'jsonrpc';
  return 'tool_error';
}

/** A caller as a label: its client's name, else what proved it (never a subject: labels stay few). */
export function clientLabel(identity: Identity | undefined): string {
  if (!identity) return 'local';
  if (identity.client !== undefined) return identity.client;
  return identity.kind === 'anonymous' ? (identity.address ? 'anonymous' : 'local') : identity.kind;
}

// The audit trail: one JSON line per tool call, resource read and prompt get that reached the host
// (refused ones included), written by pino through pino-roll (size-bounded files, the oldest
// removed). Arguments are left out unless `audit.arguments` is on, and then redacted (redact.ts).
import pino from 'pino';
import pinoRoll from 'pino-roll';
import { callerKey } from '../registry/identity.js';
import { measure } from '../registry/limits.js';
import type { CallRecord, Registry } from '../registry/registry.js';
import { clientLabel, outcomeKind, type OutcomeKind } from './outcome.js';
import { redactedArguments } from './redact.js';

export interface AuditSettings {
  file: string;
  arguments: boolean;
  maxBytes: number;
  keep: number;
}

/** One line of the trail. */
export interface AuditEntry {
  /** The format of the line (1). */
  v: number;
  time: string;
  /** The named client, else what proved the caller (token, oauth, anonymous, local). */
  client: string;
  /** The caller's key (callerKey): the OAuth subject of an unnamed signed-in caller, the address of an anonymous one. */
  caller: string;
  session?: string;
  era?: 'legacy' | 'modern';
  backend: string;
  /** What was called: a tool, a resource (its URI in `tool`), a prompt. */
  kind: 'tool' | 'resource' | 'prompt';
  tool: string;
  outcome: OutcomeKind;
  /** The error's code, for anything but success. */
  code?: string | number;
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  arguments?: unknown;
}

/** Past this a size is not counted on (a result is capped at `limits.resultBytes` anyway). */
const SIZE_CAP = 64 * 1024 * 1024;

export function auditEntry(record: CallRecord, withArguments: boolean): Omit<AuditEntry, 'time' | 'v'> {
  const identity = record.client?.identity;
  const outcome = outcomeKind(record.outcome);
  return {
    client: clientLabel(identity),
    caller: identity ? callerKey(identity) : 'local',
    ...(record.client?.session !== undefined && { session: record.client.session }),
    ...(record.client?.era !== undefined && { era: record.client.era }),
    backend: record.plugin,
    kind: record.kind ?? 'tool',
    tool: record.tool,
    outcome,
    ...(outcome !== 'success' && record.outcome.error && { code: record.outcome.error.code }),
    durationMs: Math.round(record.durationMs * 10) / 10,
    requestBytes: record.args === undefined ? 0 : measure(record.args, SIZE_CAP).bytes,
    responseBytes: record.responseBytes ?? measure(record.outcome.result, SIZE_CAP).bytes,
    ...(withArguments && record.args !== undefined && { arguments: redactedArguments(record.args) }),
  };
}

export interface AuditTrail {
  close(): Promise<void>;
}

export async function openAuditTrail(registry: Registry, settings: AuditSettings): Promise<AuditTrail> {
  // pino-roll 4 takes the extension from the file's name (its `extension` option is lost on the way).
  const stream = await pinoRoll({
    file: settings.file,
    size: `${settings.maxBytes}b`,
    mkdir: true,
    limit: { count: settings.keep, removeOtherLogFiles: true },
  });
  // No pid, host name or level: `v` (the line's format, 1) stands where pino puts the level.
  const log = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: () => ({ v: 1 }) } }, stream);
  const stop = registry.onCall((record) => log.info(auditEntry(record, settings.arguments)));
  return {
    async close() {
      stop();
      // Ended only once the file is open and written: a trail closed at once is still complete.
      await new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      });
    },
  };
}

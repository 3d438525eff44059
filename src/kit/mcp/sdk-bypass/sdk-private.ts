// Every read of a field the MCP SDK does not publish, in one place. Each is checked where it is
// read: when this SDK lacks it, the problem is reported once (a warning naming the field and this
// folder's README) and the caller takes the SDK's own way, so a minor release that renames one
// costs speed, never a wrong answer. test/sdk-bypass/sdk-private.test.ts fails when the installed
// SDK lacks one.

/** What the bypasses use of the SDK's era codec (core-internal/src/wire/codec.ts). */
export interface WireCodec {
  validateResult(method: string, raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
  encodeErrorCode(code: number): number;
}

const reported = new Set<string>();

function missing(field: string, report: (message: string) => void): undefined {
  if (reported.has(field)) return undefined;
  reported.add(field);
  report(
    `the MCP SDK has no ${field} (read by src/kit/mcp/sdk-bypass/sdk-private.ts): taking the SDK's own path instead; ` +
      'see src/kit/mcp/sdk-bypass/README.md for what to check after an SDK update',
  );
  return undefined;
}

/**
 * The codec of the era a Protocol (Server or Client) negotiated, through its protected
 * `_wireCodec()` (core-internal/src/shared/protocol.ts); undefined when this SDK has none.
 */
export function wireCodecOf(protocol: object, report: (message: string) => void): WireCodec | undefined {
  const read = (protocol as { _wireCodec?: unknown })._wireCodec;
  if (typeof read !== 'function') return missing('Protocol._wireCodec()', report);
  const codec = read.call(protocol) as Partial<WireCodec> | undefined;
  if (typeof codec?.validateResult !== 'function' || typeof codec.encodeErrorCode !== 'function') {
    return missing('validateResult/encodeErrorCode on the wire codec', report);
  }
  return codec as WireCodec;
}

/**
 * The one abort signal an SDK HTTP client transport hands every fetch (its `_abortController`,
 * set by start(): client/src/client/streamableHttp.ts and sse.ts); undefined when it has none.
 */
export function transportAbortSignal(transport: object, report: (message: string) => void): AbortSignal | undefined {
  const controller = (transport as { _abortController?: unknown })._abortController;
  if (controller instanceof AbortController) return controller.signal;
  return missing('_abortController on its HTTP client transports', report);
}

/** Forgets what was reported (tests only). */
export function forgetReported(): void {
  reported.clear();
}

// One tools/call to an upstream, past the parts of the SDK client's callTool()
// (client/src/client/client.ts) that a 2025-era connection does not need: it parses `undefined`
// against the result schema and formats the failure (its probe for "is this a spec method"), then
// parses the result, then looks the tool's output schema up in its listing cache. A 2025-era
// connection has nothing else callTool() adds (header mirroring is 2026-era only), so there the
// request goes out with the SDK's CallToolResult schema (skipped for a result it would return
// unchanged: result-shape.ts), and the output schema the tool was listed with is checked here,
// compiled once per listing, with the same errors callTool() gives. A 2026-era connection keeps
// callTool(). A child process's connection sends the request past the SDK client
// (direct-requests.ts), and the answer gets here the checks Protocol.request gives it.
import {
  fromJsonSchema,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type Client,
  type Tool,
} from '@modelcontextprotocol/client';
import { ChildProcessTransport } from '../stdio-child.js';
import { unchangedBySdkSchema } from './result-shape.js';

type Options = NonNullable<Parameters<Client['callTool']>[1]>;
type ResultSchema = typeof specTypeSchemas.CallToolResult;

/** The SDK's CallToolResult schema, skipped for results it would pass unchanged. */
export const callToolResult: ResultSchema = {
  '~standard': {
    ...specTypeSchemas.CallToolResult['~standard'],
    validate: (value) =>
      unchangedBySdkSchema(value) ? { value: value as CallToolResult } : specTypeSchemas.CallToolResult['~standard'].validate(value),
  },
};
type Params = Parameters<Client['callTool']>[0];

/** "path: message" as the SDK formats a schema issue. */
function issueText(issue: { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string {
  if (!issue.path?.length) return issue.message;
  return `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`;
}

/**
 * The result of a direct request, as Protocol.request hands it over in the 2025 era: a `resultType`
 * key dropped (the 2025 codec's decodeResult), then checked with the result schema, whose failure is
 * the SDK's InvalidResult error with the SDK's wording.
 */
async function decoded(raw: unknown): Promise<CallToolResult> {
  let value = raw;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'resultType' in raw) {
    const { resultType: _dropped, ...rest } = raw as Record<string, unknown>;
    value = rest;
  }
  const outcome = await callToolResult['~standard'].validate(value);
  if (outcome.issues && outcome.issues.length > 0) {
    throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${outcome.issues.map(issueText).join(', ')}`);
  }
  return (outcome as { value: CallToolResult }).value;
}

/** The request on its way: straight onto a child's pipe when it is one, else through the SDK client. */
function send(client: Client, params: Params, options: Options): Promise<CallToolResult> {
  const transport = client.transport;
  if (transport instanceof ChildProcessTransport) {
    return transport.direct
      .request('tools/call', params as Record<string, unknown>, { signal: options.signal, onprogress: options.onprogress })
      .then(decoded);
  }
  return client.request({ method: 'tools/call', params }, callToolResult, options) as Promise<CallToolResult>;
}
type Check = { ok: true; validate?: (value: unknown) => string | undefined } | { ok: false; error: string };

/** Compiles a listed tool's output schema on first use; a schema that does not compile fails each call, as in callTool(). */
export function outputCheck(tool: Tool): () => Check {
  let check: Check | undefined;
  return () => (check ??= compile(tool));
}

function compile(tool: Tool): Check {
  if (!tool.outputSchema) return { ok: true };
  try {
    const schema = fromJsonSchema(tool.outputSchema as Parameters<typeof fromJsonSchema>[0]);
    return {
      ok: true,
      validate: (value) => {
        const outcome = schema['~standard'].validate(value);
        if (outcome instanceof Promise) return undefined; // the default validators are synchronous
        return outcome.issues ? outcome.issues.map((i) => i.message).join('; ') : undefined;
      },
    };
  } catch (error) {
    return { ok: false, error: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
  }
}

export async function callUpstreamTool(client: Client, params: Params, options: Options, check: () => Check): Promise<CallToolResult> {
  if (client.getProtocolEra() === 'modern') return (await client.callTool(params, options)) as CallToolResult;
  const compiled = check();
  if (!compiled.ok)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool '${params.name}' has an invalid outputSchema: ${compiled.error}`);
  const result = await send(client, params, options);
  if (compiled.validate && !result.isError) {
    if (result.structuredContent === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Tool ${params.name} has an output schema but did not return structured content`,
      );
    }
    const problem = compiled.validate(result.structuredContent);
    if (problem !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${problem}`);
    }
  }
  return result;
}

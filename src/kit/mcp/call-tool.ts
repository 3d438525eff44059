// One tools/call to an upstream, as cheap as the relay can make it. The SDK client's callTool()
// validates each result by first parsing `undefined` against the result schema and formatting the
// failure (its probe for "is this a spec method"), then parsing the result, then looking the tool's
// output schema up in its listing cache: about a third of what relaying a small call cost mcphost.
// A 2025-era connection has nothing else callTool() adds (header mirroring is 2026-era only), so
// there the request goes out with the SDK's own CallToolResult schema, and the output schema the
// tool was listed with is checked here, compiled once per listing, with the same errors callTool()
// gives. A 2026-era connection keeps callTool().
import {
  fromJsonSchema,
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type Client,
  type Tool,
} from '@modelcontextprotocol/client';

type Options = NonNullable<Parameters<Client['callTool']>[1]>;
type Params = Parameters<Client['callTool']>[0];
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
  const result = (await client.request({ method: 'tools/call', params }, specTypeSchemas.CallToolResult, options)) as CallToolResult;
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

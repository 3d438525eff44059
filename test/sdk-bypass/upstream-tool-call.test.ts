// The upstream side of the relay's tools/call (src/kit/mcp/sdk-bypass/call-tool.ts, written past the
// SDK client by direct-requests.ts) against the SDK client's own callTool(), on one connection to a
// real stdio server: the same result, structured output, tool error, refusal, output-schema checks,
// progress and cancellation, and the same error when the server dies mid-call.
import { ProtocolError, SdkError, type CallToolResult, type Client, type Tool } from '@modelcontextprotocol/client';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/kit/mcp/client.js';
import { callUpstreamTool, outputCheck } from '../../src/kit/mcp/sdk-bypass/call-tool.js';
import { ChildProcessTransport } from '../../src/kit/mcp/stdio-child.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, journalLines, waitFor } from '../upstream/helpers.js';

const t = tempDir();
const journal = path.join(t.dir, 'journal.log');
let upstream: UpstreamClient;
let tools: Map<string, Tool>;

beforeAll(async () => {
  upstream = new UpstreamClient({
    name: 'up',
    target: { kind: 'stdio', command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_JOURNAL: journal } },
    logger: silentLogger,
    backoff: { initialMs: 10, maxMs: 10, resetAfterMs: 60_000 },
  });
  const listed = await upstream.request((sdk) => sdk.listTools());
  tools = new Map(listed.tools.map((tool) => [tool.name, tool]));
});

afterAll(() => upstream?.close());

type Outcome = { result: CallToolResult } | { error: { kind: string; code: unknown; message: string } };
type Params = { name: string; arguments?: Record<string, unknown> };
type Options = { signal?: AbortSignal; onprogress?: (p: { progress: number; message?: string }) => void };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { result: (await run()) as CallToolResult };
  } catch (error) {
    if (!(error instanceof ProtocolError || error instanceof SdkError)) throw error;
    return { error: { kind: error.constructor.name, code: error.code, message: error.message } };
  }
}

/** The call through the annex and through callTool(), one after the other; `tool` is the listing both check against. */
async function both(params: Params, options: () => Options = () => ({}), tool = tools.get(params.name)) {
  const viaAnnex = await upstream.request(async (sdk) => {
    expect(sdk.transport).toBeInstanceOf(ChildProcessTransport); // the direct requests' case
    return outcome(() =>
      callUpstreamTool(sdk, params, options(), outputCheck(tool ?? { name: params.name, inputSchema: { type: 'object' } })),
    );
  });
  const viaSdk = await upstream.request((sdk: Client) =>
    outcome(() => sdk.callTool(params, { ...options(), ...(tool && { toolDefinition: tool }) })),
  );
  expect(viaAnnex).toEqual(viaSdk);
  return viaAnnex;
}

describe('a relayed call to a stdio server: the annex and the SDK client answer alike', () => {
  it('a text result', async () => {
    expect(await both({ name: 'echo', arguments: { text: 'hi' } })).toEqual({ result: { content: [{ type: 'text', text: 'echo: hi' }] } });
  });

  it('structured output, checked against the output schema', async () => {
    expect(await both({ name: 'divide', arguments: { a: 6, b: 3 } })).toEqual({
      result: { content: [{ type: 'text', text: '2' }], structuredContent: { quotient: 2 } },
    });
  });

  it('a tool error', async () => {
    expect(await both({ name: 'divide', arguments: { a: 1, b: 0 } })).toMatchObject({ result: { isError: true } });
  });

  it('bad arguments, refused by the server', async () => {
    expect(await both({ name: 'echo', arguments: {} })).toMatchObject({ result: { isError: true } });
  });

  it('an unknown tool: the server’s JSON-RPC error', async () => {
    expect(await both({ name: 'nope', arguments: {} }, undefined, undefined)).toMatchObject({
      error: { kind: 'ProtocolError', code: -32602 },
    });
  });

  it('structured content that does not match the listed output schema', async () => {
    const listed = { ...tools.get('divide')!, outputSchema: { type: 'object' as const, properties: { quotient: { type: 'string' } } } };
    const answer = await both({ name: 'divide', arguments: { a: 6, b: 3 } }, undefined, listed);
    expect(answer).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Structured content does not match/) } });
  });

  it('no structured content from a tool listed with an output schema', async () => {
    const listed = { ...tools.get('echo')!, outputSchema: { type: 'object' as const, properties: { x: { type: 'number' } } } };
    const answer = await both({ name: 'echo', arguments: { text: 'x' } }, undefined, listed);
    expect(answer).toMatchObject({
      error: { code: -32600, message: 'Tool echo has an output schema but did not return structured content' },
    });
  });

  it('a listed output schema that does not compile', async () => {
    const listed = { ...tools.get('echo')!, outputSchema: { type: 'object' as const, properties: { x: { type: 'no-such-type' } } } };
    const answer = await both({ name: 'echo', arguments: { text: 'x' } }, undefined, listed);
    expect(answer).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^Tool 'echo' has an invalid outputSchema: /) } });
  });

  it('progress, every step before the result', async () => {
    const steps: Record<string, string[]> = { annex: [], sdk: [] };
    let which = 'annex';
    const answer = await both({ name: 'slow', arguments: { steps: 3, stepMs: 10 } }, () => {
      const seen = steps[which]!;
      which = 'sdk';
      return { onprogress: (p) => void seen.push(p.message ?? '') };
    });
    expect(answer).toEqual({ result: { content: [{ type: 'text', text: 'done 3' }] } });
    expect(steps).toEqual({ annex: ['step 1', 'step 2', 'step 3'], sdk: ['step 1', 'step 2', 'step 3'] });
  });

  it('a cancelled call is cancelled upstream, and the connection keeps serving', async () => {
    const cancelled = () => journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    for (const via of ['annex', 'sdk'] as const) {
      const before = cancelled();
      const controller = new AbortController();
      const running = upstream.request((sdk) =>
        via === 'annex'
          ? callUpstreamTool(
              sdk,
              { name: 'slow', arguments: { steps: 100, stepMs: 50 } },
              { signal: controller.signal },
              outputCheck(tools.get('slow')!),
            )
          : sdk.callTool({ name: 'slow', arguments: { steps: 100, stepMs: 50 } }, { signal: controller.signal }),
      );
      await waitFor(() => journalLines(journal).at(-1) === 'slow:start', 'the call to start upstream');
      controller.abort(new Error('the user gave up'));
      await expect(running, via).rejects.toThrow();
      await waitFor(() => cancelled() > before, `the ${via} cancel to reach the server`);
    }
    expect(await both({ name: 'echo', arguments: { text: 'after' } })).toEqual({
      result: { content: [{ type: 'text', text: 'echo: after' }] },
    });
  });

  it('a server that dies mid-call: the connection-closed error', async () => {
    const crash = { name: 'crash', arguments: { code: 3 } };
    const viaAnnex = await upstream.request((sdk) => outcome(() => callUpstreamTool(sdk, crash, {}, outputCheck(tools.get('crash')!))));
    // Started again once its restart delay has passed.
    await waitFor(() => (upstream.status().retryInMs ?? 0) === 0, 'the restart delay to pass');
    const viaSdk = await upstream.request((sdk) => outcome(() => sdk.callTool(crash)));
    expect(viaAnnex).toEqual({ error: { kind: 'SdkError', code: 'CONNECTION_CLOSED', message: 'Connection closed' } });
    expect(viaSdk).toEqual(viaAnnex);
  });
});

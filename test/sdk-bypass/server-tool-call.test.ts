// The stdio fast path for a mounted tool's call (src/server/sdk-bypass/tool-call.ts) against the SDK
// path it stands in for: two stdio connections to one host, one with the fast path and one without,
// each spoken to by the official SDK client, must get the same answers — a result, structured
// output, a tool error, an unknown tool, a result over the size cap, a timeout, progress, a
// cancellation — and the host's metrics must count the fast path's calls as they count the others.
import { Client, ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSurface } from '../../src/discover/surface.js';
import type { Logger } from '../../src/backend/types.js';
import { forgetReported } from '../../src/kit/mcp/sdk-bypass/sdk-private.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { Registry } from '../../src/registry/registry.js';
import { serveOnStdio, type StdioServing } from '../../src/server/stdio.js';
import { createUpstreamBackend } from '../../src/upstream/backend.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { StreamPairTransport } from '../../src/app/loopback.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, journalLines, waitFor, whenListed } from '../upstream/helpers.js';

const t = tempDir();
const journal = path.join(t.dir, 'journal.log');
const RESULT_BYTES = 64 * 1024;

/** Every line the server wrote, parsed: to see what was (not) answered. */
class RecordingPair extends StreamPairTransport {
  readonly lines: Array<Record<string, unknown>> = [];
  protected override received(line: string): void {
    if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    super.received(line);
  }
}

interface Connection {
  client: Client;
  transport: RecordingPair;
  serving: StdioServing;
}

let registry: Registry;
let fast: Connection;
let slow: Connection;

async function connect(fastPath: boolean, era: 'legacy' | 'modern' = 'legacy', logger: Logger = silentLogger): Promise<Connection> {
  const transport = new RecordingPair();
  const serving = serveOnStdio(registry, { name: 'mcphost', version: '0.0.0-test' }, logger, transport.serverSide, { fastPath });
  const client = new Client(
    { name: 'fast-path-test', version: '1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return { client, transport, serving };
}

beforeAll(async () => {
  const upstream = createUpstreamBackend(
    'fx',
    { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_TOOLS_ONLY: '1', FIXTURE_JOURNAL: journal } },
    process.env,
  );
  registry = await Registry.create([inlineBackend('fx', upstream)], {
    logger: silentLogger,
    timeouts: { toolMs: 10_000, startMs: 10_000, shutdownMs: 1_000 },
    limits: { resultBytes: RESULT_BYTES },
    serving: true,
  });
  fast = await connect(true);
  slow = await connect(false);
  await whenListed(fast.client, ['fx_echo', 'fx_slow']);
  await whenListed(slow.client, ['fx_echo', 'fx_slow']);
  // A name is looked up without waiting only in a built catalog: the first calls after a list change
  // (the server coming up) build it on the SDK path.
  await waitFor(async () => {
    await fast.client.callTool({ name: 'fx_echo', arguments: { text: 'warm' } });
    return fast.serving.fastPathCalls() > 0;
  }, 'a call to take the fast path');
}, 30_000);

afterAll(async () => {
  for (const c of [fast, slow]) {
    await c?.client.close().catch(() => undefined);
    await c?.serving.close();
  }
  await registry?.close();
});

type Outcome = { result: CallToolResult } | { error: { code: number; message: string; data: unknown } };

/** One call on a connection: its result, or the JSON-RPC error it was answered with; and whether the fast path took it. */
async function call(c: Connection, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) {
  const before = c.serving.fastPathCalls();
  let outcome: Outcome;
  try {
    outcome = { result: (await c.client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) })) as CallToolResult };
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    outcome = { error: { code: error.code, message: error.message, data: error.data } };
  }
  return { outcome, fast: c.serving.fastPathCalls() > before };
}

/** The same call on both connections: the answers are equal, and only the fast connection's went past the SDK (when `taken`). */
async function same(name: string, args: Record<string, unknown>, taken: boolean, meta?: Record<string, unknown>): Promise<Outcome> {
  const viaFast = await call(fast, name, args, meta);
  const viaSlow = await call(slow, name, args, meta);
  expect(viaFast.outcome).toEqual(viaSlow.outcome);
  expect(viaFast.fast).toBe(taken);
  expect(viaSlow.fast).toBe(false);
  return viaFast.outcome;
}

const text = (outcome: Outcome) => ('result' in outcome ? (outcome.result.content as Array<{ text: string }>)[0]!.text : undefined);

describe('a mounted tool called over stdio: fast path and SDK path answer alike', () => {
  it('answers a call with the server’s result', async () => {
    const outcome = await same('fx_echo', { text: 'hi' }, true);
    expect(outcome).toEqual({ result: { content: [{ type: 'text', text: 'echo: hi' }] } });
  });

  it('answers structured output, checked against the tool’s output schema', async () => {
    const outcome = await same('fx_divide', { a: 6, b: 3 }, true);
    expect(outcome).toEqual({ result: { content: [{ type: 'text', text: '2' }], structuredContent: { quotient: 2 } } });
  });

  it('passes a tool error on as an error result', async () => {
    const outcome = await same('fx_divide', { a: 1, b: 0 }, true);
    expect('result' in outcome && outcome.result.isError).toBe(true);
    expect(text(outcome)).toBe('division by zero');
  });

  it('refuses a missing required argument as the SDK path does', async () => {
    const outcome = await same('fx_echo', {}, true);
    expect(text(outcome)).toMatch(/^Invalid arguments for tool fx_echo:/);
  });

  it('leaves an unknown tool to the SDK path: the same clear error', async () => {
    const outcome = await same('fx_nope', {}, false);
    expect(outcome).toMatchObject({ error: { code: -32602 } });
    expect('error' in outcome && outcome.error.message).toMatch(/fx_nope/);
  });

  it('caps an oversize upstream result with a clear error, and keeps serving', async () => {
    const outcome = await same('fx_big', { bytes: RESULT_BYTES * 2 }, true);
    expect('result' in outcome && outcome.result.isError).toBe(true);
    expect(text(outcome)).toMatch(/^tool fx_big: result too large \(.*cap 65,536\)/);
    expect(text((await call(fast, 'fx_echo', { text: 'after' })).outcome)).toBe('echo: after');
  });

  it('ends a call past its deadline (the client’s timeout override) with a timeout error', async () => {
    const outcome = await same('fx_slow', { steps: 40, stepMs: 50 }, true, { 'mcphost/timeoutMs': 150 });
    expect(text(outcome)).toBe('tool fx_slow timed out after 150 ms');
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length >= 2, 'both timed-out calls cancelled upstream');
  });

  it('relays progress, every step before the result', async () => {
    const progress = async (c: Connection) => {
      const steps: Array<{ progress: number; total?: number; message?: string }> = [];
      const before = c.serving.fastPathCalls();
      const result = await c.client.callTool(
        { name: 'fx_slow', arguments: { steps: 4, stepMs: 20 } },
        { onprogress: (p) => steps.push(p) },
      );
      return { result, steps, fast: c.serving.fastPathCalls() > before };
    };
    const viaFast = await progress(fast);
    const viaSlow = await progress(slow);
    expect(viaFast.fast).toBe(true);
    expect(viaSlow.fast).toBe(false);
    expect(viaFast.result).toEqual({ content: [{ type: 'text', text: 'done 4' }] });
    expect(viaFast.steps.map((s) => s.message)).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
    expect(viaFast).toEqual({ ...viaSlow, fast: true });
  });

  it('cancels a call the client cancels: upstream too, no answer sent, the connection keeps serving', async () => {
    const cancelled = async (c: Connection) => {
      const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
      const calls = c.serving.fastPathCalls();
      const start = c.transport.lines.length;
      const controller = new AbortController();
      const running = c.client.callTool({ name: 'fx_slow', arguments: { steps: 100, stepMs: 50 } }, { signal: controller.signal });
      await waitFor(() => journalLines(journal).at(-1) === 'slow:start', 'the call to start upstream');
      controller.abort('the user gave up');
      await expect(running).rejects.toThrow();
      await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the cancel to reach the server');
      // Anything the host still sent about that call would arrive before the answer to the next one.
      expect(text((await call(c, 'fx_echo', { text: 'next' })).outcome)).toBe('echo: next');
      const answers = c.transport.lines.slice(start).filter((m) => 'result' in m || 'error' in m);
      return { answers: answers.length, fast: c.serving.fastPathCalls() > calls };
    };
    expect(await cancelled(fast)).toEqual({ answers: 1, fast: true });
    expect(await cancelled(slow)).toEqual({ answers: 1, fast: false });
  });

  it('is counted in the metrics like any call', async () => {
    const metrics = createMetrics(registry, { sessions: () => 0, health: async () => ({ ok: true }) });
    try {
      const count = async () => {
        const line = (await metrics.text()).split('\n').find((l) => l.startsWith('mcphost_tool_calls_total{tool="fx_pid",backend="fx"}'));
        return line === undefined ? 0 : Number(line.split(' ').at(-1));
      };
      const before = await count();
      const taken = fast.serving.fastPathCalls();
      await call(fast, 'fx_pid', {});
      await call(fast, 'fx_pid', {});
      expect(fast.serving.fastPathCalls()).toBe(taken + 2);
      expect(await count()).toBe(before + 2);
    } finally {
      metrics.close();
    }
  });

  it('leaves a 2026-era session to the SDK path, which answers alike', async () => {
    const modern = await connect(true, 'modern');
    try {
      const result = await modern.client.callTool({ name: 'fx_echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
      expect(modern.serving.fastPathCalls()).toBe(0);
    } finally {
      await modern.client.close();
      await modern.serving.close();
    }
  });

  it('takes the SDK path, answering alike, and says so once, on an SDK without the codec it reads', async () => {
    const warnings: string[] = [];
    const c = await connect(true, 'legacy', { ...silentLogger, warn: (m) => void warnings.push(m) });
    // A later SDK that renamed the protected Protocol._wireCodec() (Server uses it only for what mcphost does not call).
    const protocol = Object.getPrototypeOf(Server.prototype) as { _wireCodec?: unknown };
    const wireCodec = protocol._wireCodec;
    forgetReported();
    try {
      await whenListed(c.client, ['fx_echo']);
      await call(c, 'fx_echo', { text: 'warm' });
      delete protocol._wireCodec;
      const first = await call(c, 'fx_echo', { text: 'hi' });
      const second = await call(c, 'fx_divide', { a: 6, b: 3 });
      expect(first).toEqual({ outcome: (await call(slow, 'fx_echo', { text: 'hi' })).outcome, fast: false });
      expect(second).toEqual({ outcome: (await call(slow, 'fx_divide', { a: 6, b: 3 })).outcome, fast: false });
      expect(warnings).toEqual([expect.stringMatching(/^stdio: the MCP SDK has no Protocol\._wireCodec\(\) .*taking the SDK's own path/)]);
    } finally {
      protocol._wireCodec = wireCodec;
      forgetReported();
      await c.client.close();
      await c.serving.close();
    }
    expect((await call(fast, 'fx_echo', { text: 'back' })).fast).toBe(true);
  });

  it('leaves discover mode’s mcphost_call_tool to the SDK path: the same result as the direct call', async () => {
    const surface = toolSurface(registry);
    surface.configure({ mode: 'discover', pinned: [] });
    try {
      const taken = fast.serving.fastPathCalls();
      const meta = await call(fast, 'mcphost_call_tool', { name: 'fx_echo', arguments: { text: 'found' } });
      expect(meta.fast).toBe(false);
      expect(fast.serving.fastPathCalls()).toBe(taken);
      expect(meta.outcome).toEqual((await call(slow, 'fx_echo', { text: 'found' })).outcome);
    } finally {
      surface.configure({ mode: 'flat', pinned: [] });
    }
  });
});

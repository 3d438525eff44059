import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { serveOnStdio } from '../../src/server/stdio.js';
import { isolatedEnv } from '../helpers/cli.js';
import { KITCHEN } from '../helpers/paths.js';
import { alive } from '../helpers/process.js';
import { RecordingStdioTransport } from '../helpers/recording-stdio.js';
import { StreamPairTransport } from '../../src/app/loopback.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const env = isolatedEnv(t.dir);

/** What the tests read: every line the server wrote to stdout, and its log. */
interface Recorded {
  lines: string[];
  stderr: string;
  strayLines(): string[];
}

interface Session {
  client: Client;
  transport: Recorded;
  journal: string;
  close(): Promise<void>;
}

/**
 * The 2025 era runs the real binary (the stdio smoke test); the 2026 era runs the same stdio code
 * (line reader, serveStdio, the MCP server) in-process over a pair of streams. Debug logging on.
 */
async function serve(era: 'legacy' | 'modern'): Promise<Session> {
  const journal = path.join(t.dir, `journal-${era}.log`);
  // The kitchen starts a child process (sleep 300) with its backend, so closing can be checked.
  const config = t.write(
    `rc-${era}.yaml`,
    `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    journal: ${journal}\n    childPidFile: ${journal}.pid\n`,
  );
  const client = new Client(
    { name: 'mcphost-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  if (era === 'legacy') {
    const transport = new RecordingStdioTransport(['--config', config, '--log-level', 'debug'], { cwd: t.dir, env });
    await client.connect(transport);
    return { client, transport, journal, close: () => client.close() };
  }
  const transport = new StreamTransport();
  const { registry } = await openHost({
    cwd: t.dir,
    env,
    configFile: config,
    logLevel: 'debug',
    writeLog: (l) => void (transport.stderr += l),
  });
  const serving = serveOnStdio(
    registry,
    { name: 'mcphost', version: '0.0.0-test' },
    registry.hosts[0].context.logger,
    transport.serverSide,
  );
  await client.connect(transport);
  return {
    client,
    transport,
    journal,
    async close() {
      await client.close();
      await serving.close();
      await registry.close();
    },
  };
}

/** The helper's stream transport, recording every line the server writes (a blank one too: it is stray output). */
class StreamTransport extends StreamPairTransport implements Recorded {
  readonly lines: string[] = [];
  stderr = '';

  protected override received(line: string): void {
    this.lines.push(line);
    this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
  }

  strayLines(): string[] {
    return this.lines.filter((line) => (JSON.parse(line) as { jsonrpc?: string }).jsonrpc !== '2.0');
  }
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`mcphost serve over stdio (${era} era)`, () => {
    let s: Session;
    beforeAll(async () => {
      s = await serve(era);
    });
    afterAll(() => s.close());

    it('negotiates the era the client asked for', () => {
      expect(s.client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    });

    it('lists tools with schemas, titles and annotations', async () => {
      const { tools } = await s.client.listTools();
      const echo = tools.find((x) => x.name === 'kitchen_echo')!;
      expect(echo).toMatchObject({ title: 'Echo', annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false } });
      expect(echo.inputSchema).toMatchObject({
        type: 'object',
        properties: { message: { type: 'string', description: 'text to echo' } },
        required: ['message'],
      });
      expect(tools.find((x) => x.name === 'kitchen_add')!.outputSchema).toMatchObject({
        type: 'object',
        properties: { sum: { type: 'number' } },
      });
    });

    it('calls a tool and returns text and structured content', async () => {
      expect(await s.client.callTool({ name: 'kitchen_echo', arguments: { message: 'world' } })).toMatchObject({
        content: [{ type: 'text', text: 'hello world' }],
      });
      expect((await s.client.callTool({ name: 'kitchen_add', arguments: { a: 2, b: 40 } })).structuredContent).toEqual({ sum: 42 });
    });

    it('answers bad arguments with a tool error naming the field, and keeps serving', async () => {
      const bad = await s.client.callTool({ name: 'kitchen_add', arguments: { a: 'two', b: 1 } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0].text).toContain('a: expected number, got a string ("two")');
      expect((await s.client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
    });

    it('answers an unknown tool with a protocol error', async () => {
      await expect(s.client.callTool({ name: 'kitchen_nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it('writes every progress notification before the result, in order, and the client sees them', async () => {
      const from = s.transport.lines.length;
      const seen: number[] = [];
      const r = await s.client.callTool(
        { name: 'kitchen_slow', arguments: { steps: 3, stepMs: 5 } },
        { onprogress: (p) => seen.push(p.progress) },
      );
      expect(r.content).toEqual([{ type: 'text', text: 'done 3' }]);
      // The wire is what the protocol guarantees: the notifications, then the response.
      const wire = s.transport.lines.slice(from).map((l) => JSON.parse(l));
      const answer = wire.findIndex((m) => m.result?.content?.[0]?.text === 'done 3');
      const progress = wire.filter((m) => m.method === 'notifications/progress');
      expect(progress.map((m) => m.params)).toEqual(
        [1, 2, 3].map((i) => ({ progressToken: wire[answer].id, progress: i, total: 3, message: `step ${i}` })),
      );
      expect(progress.every((m) => wire.indexOf(m) < answer)).toBe(true);
      if (era === 'legacy') expect(wire.slice(wire.indexOf(progress[2]), answer).map((m) => m.method)).toContain('ping');
      // The SDK client drops a notification it reads in the same chunk as the response
      // (typescript-sdk#2580). In the 2025 era the host pings the client before answering, so all
      // arrive; the 2026 era has no ping, and the client shows the first of them, in order.
      expect(seen).toEqual(era === 'legacy' ? [1, 2, 3] : [1, 2, 3].slice(0, seen.length));
    });

    it('aborts the running handler when the client cancels', async () => {
      const count = (line: string) =>
        readFileSync(s.journal, 'utf8')
          .split('\n')
          .filter((l) => l === line).length;
      const started = count('slow:start');
      const aborted = count('slow:aborted:CancelledError');
      const ac = new AbortController();
      const call = s.client.callTool({ name: 'kitchen_slow', arguments: { steps: 200, stepMs: 20 } }, { signal: ac.signal });
      // Cancelled once it runs: a cancel that overtakes the start is another case (the handler never starts).
      await expect.poll(() => count('slow:start'), { timeout: 10_000 }).toBe(started + 1);
      ac.abort('stop it');
      await expect(call).rejects.toThrow();
      await expect.poll(() => count('slow:aborted:CancelledError'), { timeout: 10_000 }).toBe(aborted + 1);
    });

    it('lets a client set one call\'s timeout with _meta["mcphost/timeoutMs"]', async () => {
      const r = await s.client.callTool({
        name: 'kitchen_slow',
        arguments: { steps: 100, stepMs: 20 },
        _meta: { 'mcphost/timeoutMs': 150 },
      });
      expect(r.isError).toBe(true);
      expect((r.content as Array<{ text: string }>)[0].text).toBe('tool kitchen_slow timed out after 150 ms');
    });

    it('lists, reads and completes resources, and gets prompts', async () => {
      expect((await s.client.listResources()).resources.map((r) => r.uri)).toEqual([
        'kitchen://menu',
        'kitchen://dish/soup',
        'kitchen://dish/salad',
      ]);
      expect((await s.client.listResourceTemplates()).resourceTemplates).toEqual([
        { uriTemplate: 'kitchen://dish/{name}', name: 'dish', title: 'A dish', mimeType: 'application/json' },
      ]);
      const read = await s.client.readResource({ uri: 'kitchen://dish/soup' });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ dish: 'soup', uri: 'kitchen://dish/soup' });
      await expect(s.client.readResource({ uri: 'kitchen://nope' })).rejects.toMatchObject({ code: -32602 });
      const completion = await s.client.complete({
        ref: { type: 'ref/resource', uri: 'kitchen://dish/{name}' },
        argument: { name: 'name', value: 'sa' },
      });
      expect(completion.completion.values).toEqual(['salad']);
      const prompt = await s.client.getPrompt({ name: 'kitchen_order', arguments: { dish: 'soup' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Please order soup.' } }]);
    });

    if (era === 'legacy') {
      // The line reader is the same in both eras.
      // (The 300,000 keys of issue 14 are sent in test/server/http.test.ts and test/registry.)
      it('refuses a call with 120,000 argument keys as it reads the line, and keeps serving', async () => {
        const args: Record<string, unknown> = {};
        for (let i = 0; i < 120_000; i++) args[`k${i}`] = 1;
        await expect(s.client.callTool({ name: 'kitchen_add', arguments: args })).rejects.toMatchObject({
          code: -32600,
          message: expect.stringContaining('the message holds more than 101,000 values (keys and elements); send fewer'),
        });
        expect((await s.client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
      });

      it('answers lines that are not JSON-RPC with an error instead of dropping them, and keeps serving', async () => {
        const from = s.transport.lines.length;
        // No client sends garbage, so these lines are written by hand.
        (s.transport as RecordingStdioTransport).child!.stdin!.write('{"jsonrpc": "2.0", "method": \n');
        (s.transport as RecordingStdioTransport).child!.stdin!.write('{"jsonrpc": "1.0", "id": 7, "method": "ping"}\n');
        await s.client.ping();
        expect((await s.client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
        const errors = s.transport.lines
          .slice(from)
          .map((l) => JSON.parse(l))
          .filter((m) => m.error);
        expect(errors).toEqual([
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } },
          { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
        ]);
      });
    }

    it('wrote nothing but JSON-RPC messages to stdout, with debug logging on', async () => {
      await s.client.callTool({ name: 'kitchen_boom', arguments: {} });
      await s.client.callTool({ name: 'kitchen_offline', arguments: {} });
      expect(s.transport.lines.length).toBeGreaterThan(10);
      expect(s.transport.strayLines()).toEqual([]);
      if (era === 'legacy') expect(s.transport.stderr).toContain('serving kitchen on stdio');
      expect(s.transport.stderr).toContain('debug');
    });

    if (era === 'legacy') {
      it('stops every backend, and the child it started, when the client closes stdin', async () => {
        const child = (s.transport as RecordingStdioTransport).child!;
        const pid = Number(readFileSync(`${s.journal}.pid`, 'utf8'));
        expect(alive(pid)).toBe(true);
        child.stdin!.end();
        expect((await child).exitCode).toBe(0);
        expect(readFileSync(s.journal, 'utf8').trim().split('\n').at(-1)).toBe('stop');
        await expect.poll(() => alive(pid), { timeout: 2000 }).toBe(false);
      });
    }
  });
}

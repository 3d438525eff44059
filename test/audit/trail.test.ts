// The audit trail of a host served over a real 127.0.0.1 socket to SDK clients: one JSON line per
// tool call, resource read and prompt get with the client, session, era, backend, tool, outcome kind
// (policy, limit, transport, jsonrpc, tool_error, success), duration and sizes; no argument values
// unless audit.arguments, and then credentials redacted; files rolled past maxBytes, keep at most
// `keep`; `mcphost audit` reads them back filtered.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBackend, RequestError, ToolError } from '../../src/backend/index.js';
import { namedClientsSchema } from '../../src/config/named-clients.js';
import { openAuditTrail, type AuditEntry } from '../../src/audit/trail.js';
import { trailFiles } from '../../src/audit/files.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { Registry } from '../../src/registry/registry.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';
import type { HttpServing } from '../../src/server/http.js';
import { runCli } from '../helpers/cli.js';
import { inlineBackend } from '../helpers/inline-backend.js';
import { tempDir } from '../helpers/tmp.js';
import { serveOnLoopback } from '../helpers/http-serve.js';

const SECRET_VALUE = 'hunter2-do-not-log';
const backend = defineBackend({
  name: 'probe',
  version: '1.0.0',
  description: 'answers every way a call can end',
  tools: [
    {
      name: 'ok',
      description: 'succeeds',
      input: z.object({ password: z.string().optional(), note: z.string().optional() }),
      handler: () => 'fine',
    },
    { name: 'fails', description: 'an error result', input: z.object({}), handler: () => Promise.reject(new ToolError('it broke')) },
    {
      name: 'refuses',
      description: 'a JSON-RPC error',
      input: z.object({}),
      handler: () => Promise.reject(new RequestError(-32602, 'no such thing')),
    },
    {
      name: 'down',
      description: 'unreachable',
      input: z.object({}),
      handler: () => Promise.reject(new ToolError('not running', { code: 'UNAVAILABLE' })),
    },
    { name: 'hidden', description: 'not for ci', input: z.object({}), handler: () => 'hidden' },
  ],
  resources: [{ uri: 'probe://notes', name: 'notes', read: () => 'the notes' }],
  prompts: [{ name: 'hello', get: () => 'say hello' }],
});

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function serve(audit: { file: string; arguments: boolean; maxBytes: number; keep: number }, burst = 5) {
  const registry = await Registry.create([inlineBackend('probe', backend)], {
    logger: silentLogger,
    timeouts: { toolMs: 5_000, startMs: 5_000, shutdownMs: 1_000 },
  });
  const trail = await openAuditTrail(registry, audit);
  const clients = namedClientsSchema.parse({
    ci: { token: tokenHash('ci-token'), tools: { deny: ['probe_hidden'] }, limits: { rate: { perMinute: 1, burst } } },
  });
  const serving: HttpServing = await serveOnLoopback(registry, { clients });
  const sdk: Client[] = [];
  open.push(async () => {
    await Promise.allSettled(sdk.map((c) => c.close()));
    await serving.close();
    await registry.close();
    await trail.close();
  });
  const connect = async (era: 'legacy' | 'modern') => {
    const client = new Client(
      { name: 'audit-test', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: 'Bearer ci-token' } } }),
    );
    sdk.push(client);
    return client;
  };
  return {
    connect,
    close: () =>
      open
        .splice(0)
        .reverse()
        .reduce((p, c) => p.then(c), Promise.resolve()),
  };
}

const settle = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    () => undefined,
  );

function entries(file: string): AuditEntry[] {
  return trailFiles(file).flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEntry),
  );
}

describe('the audit trail', () => {
  it('holds one line per call, read and prompt, with every outcome kind and no argument values', async () => {
    const t = tempDir();
    const file = path.join(t.dir, 'logs', 'audit.jsonl');
    const host = await serve({ file, arguments: false, maxBytes: 1 << 20, keep: 5 });
    const legacy = await host.connect('legacy');
    const modern = await host.connect('modern');
    await legacy.callTool({ name: 'probe_ok', arguments: { password: SECRET_VALUE, note: 'a note' } });
    await legacy.callTool({ name: 'probe_fails', arguments: {} });
    await settle(legacy.callTool({ name: 'probe_refuses', arguments: {} }));
    await modern.callTool({ name: 'probe_down', arguments: {} });
    await settle(modern.callTool({ name: 'probe_hidden', arguments: {} }));
    await modern.readResource({ uri: 'probe://notes' });
    await modern.getPrompt({ name: 'probe_hello' });
    // The burst of 5 is spent (the policy refusal took none): the next is refused before dispatch.
    await modern.callTool({ name: 'probe_ok', arguments: {} });
    await settle(modern.callTool({ name: 'probe_ok', arguments: { note: 'refused' } }));
    await host.close();

    const lines = entries(file);
    const tools = lines.filter((l) => l.kind === 'tool');
    expect(tools.map((l) => [l.tool, l.outcome])).toEqual([
      ['probe_ok', 'success'],
      ['probe_fails', 'tool_error'],
      ['probe_refuses', 'jsonrpc'],
      ['probe_down', 'transport'],
      ['probe_hidden', 'policy'],
      ['probe_ok', 'success'],
      ['probe_ok', 'limit'],
    ]);
    expect(lines.filter((l) => l.kind !== 'tool').map((l) => [l.kind, l.tool, l.backend, l.outcome])).toEqual([
      ['resource', 'probe://notes', 'probe', 'success'],
      ['prompt', 'probe_hello', 'probe', 'success'],
    ]);
    const first = tools[0];
    expect(first).toMatchObject({ client: 'ci', caller: 'client:ci', era: 'legacy', backend: 'probe', kind: 'tool' });
    expect(first.session).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.requestBytes).toBeGreaterThan(SECRET_VALUE.length);
    expect(first.responseBytes).toBeGreaterThan(0);
    expect(Date.parse(first.time)).not.toBeNaN();
    expect(tools[3]).toMatchObject({ era: 'modern', code: 'UNAVAILABLE' });
    expect(tools[3].session).toBeUndefined();
    expect(tools[6]).toMatchObject({ outcome: 'limit', code: -32029 });
    const text = trailFiles(file)
      .map((f) => readFileSync(f, 'utf8'))
      .join('');
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain('a note');
    expect(text).not.toContain('"arguments"');

    // Read back through the binary, filtered.
    const cli = async (...args: string[]) => runCli(['audit', '--file', file, ...args], { cwd: t.dir });
    const limited = JSON.parse((await cli('--outcome', 'limit', '--json')).stdout) as { entries: AuditEntry[] };
    expect(limited.entries.map((e) => e.tool)).toEqual(['probe_ok']);
    expect(JSON.parse((await cli('--tool', 'probe://*', '--json')).stdout).entries).toHaveLength(1);
    expect(JSON.parse((await cli('--client', 'someone-else', '--json')).stdout).entries).toHaveLength(0);
    expect(JSON.parse((await cli('--since', '1h', '--json')).stdout).entries).toHaveLength(lines.length);
    expect(JSON.parse((await cli('--since', '2000-01-01', '--client', 'ci', '--json')).stdout).entries).toHaveLength(lines.length);
    const shown = (await cli('--outcome', 'policy')).stdout;
    expect(shown).toMatch(/ {2}ci {2}probe_hidden {2}policy \(-32003\) {2}[\d.]+ ms$/);
    expect((await cli('--since', 'yesterday-ish')).stderr).toMatch(/--since yesterday-ish: expected an ISO date/);
  });

  it('keeps arguments with audit.arguments, credentials redacted, and rolls files past maxBytes', async () => {
    const t = tempDir();
    const file = path.join(t.dir, 'audit.jsonl');
    const host = await serve({ file, arguments: true, maxBytes: 1024, keep: 2 }, 100);
    const client = await host.connect('legacy');
    await client.callTool({ name: 'probe_ok', arguments: { password: SECRET_VALUE, note: 'a note' } });
    for (let i = 0; i < 20; i++) await client.callTool({ name: 'probe_ok', arguments: { note: `call ${i}` } });
    await host.close();
    const names = readdirSync(t.dir).filter((n) => n.startsWith('audit.'));
    // Two older files at most, besides the one being written.
    expect(names.length).toBeLessThanOrEqual(3);
    const lines = entries(file);
    // The oldest files went; the newest calls are there, in order.
    expect(lines.at(-1)!.arguments).toEqual({ note: 'call 19' });
    expect(Math.max(...names.map((n) => Number(n.split('.')[1])))).toBeGreaterThan(2);
    const all = names.map((n) => readFileSync(path.join(t.dir, n), 'utf8')).join('');
    expect(all).not.toContain(SECRET_VALUE);
  });

  it('redacts credentials in what it keeps', async () => {
    const t = tempDir();
    const file = path.join(t.dir, 'audit.jsonl');
    const host = await serve({ file, arguments: true, maxBytes: 1 << 20, keep: 5 });
    const client = await host.connect('modern');
    await client.callTool({ name: 'probe_ok', arguments: { password: SECRET_VALUE, note: 'a note' } });
    await host.close();
    expect(entries(file)[0].arguments).toEqual({ password: '[redacted]', note: 'a note' });
  });
});

// The client's capabilities relayed to a mounted server, end to end: the real `mcphost serve`
// binary (stdio and HTTP) mounts @modelcontextprotocol/server-everything over stdio, which lists
// trigger-elicitation-request and trigger-sampling-request only to a client that declares those
// capabilities. An SDK client that declares them answers the server's questions through mcphost,
// as a 2025-era client (the question arrives as a request) and as a 2026-era client (it arrives as
// an InputRequiredResult, fulfilled by the SDK's driver through the same handlers). A client that
// declared neither gets an error naming the capability, within the call's timeout.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { startHttp, type Era, type HttpServer } from '../helpers/mcp.js';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { EVERYTHING, textOf, whenListed, writeConfig } from './helpers.js';

const { dir } = tempDir('mcphost-relay-');
writeConfig(dir, { servers: { every: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
const CALL_TIMEOUT_MS = 20_000;

/** A client that declares elicitation and sampling (or nothing) and records what it was asked. */
function askedClient(era: Era, capable: boolean) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'relay-test', version: '1' },
    {
      ...(capable && { capabilities: { elicitation: { form: {} }, sampling: {} } }),
      ...(era === 'modern' && { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }),
    },
  );
  if (capable) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(`elicit: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
    });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content as { text?: string };
      asked.push(`sample: ${first?.text}`);
      return { role: 'assistant', content: { type: 'text', text: 'a sampled haiku' }, model: 'test-model', stopReason: 'endTurn' };
    });
  }
  return { client, asked };
}

async function exercise(client: Client, asked: string[]) {
  await whenListed(client, ['every_trigger-elicitation-request', 'every_trigger-sampling-request']);
  const elicited = await client.callTool({ name: 'every_trigger-elicitation-request', arguments: {} }, { timeout: CALL_TIMEOUT_MS });
  expect(elicited.isError).toBeFalsy();
  expect(textOf(elicited)).toContain('Ada Lovelace');
  const sampled = await client.callTool(
    { name: 'every_trigger-sampling-request', arguments: { prompt: 'write a haiku', maxTokens: 20 } },
    { timeout: CALL_TIMEOUT_MS },
  );
  expect(sampled.isError).toBeFalsy();
  expect(textOf(sampled)).toContain('a sampled haiku');
  expect(asked).toEqual(['elicit: Please provide inputs for the following fields:', expect.stringMatching(/^sample: .*write a haiku/)]);
}

async function refused(client: Client) {
  await whenListed(client, ['every_trigger-elicitation-request']);
  const started = Date.now();
  const result = await client
    .callTool({ name: 'every_trigger-elicitation-request', arguments: {} }, { timeout: CALL_TIMEOUT_MS })
    .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
  expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT_MS);
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/elicitation/);
}

describe.each<Era>(['legacy', 'modern'])('a %s-era client of mcphost serve over stdio', (era) => {
  async function open(capable: boolean) {
    const { client, asked } = askedClient(era, capable);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve'],
      cwd: dir,
      env: isolatedEnv(dir) as Record<string, string>,
      stderr: 'pipe',
    });
    await client.connect(transport);
    return { client, asked };
  }

  it('answers server-everything’s elicitation and sampling requests', async () => {
    const { client, asked } = await open(true);
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('without the capabilities, gets an error naming elicitation, not a hang', async () => {
    const { client } = await open(false);
    try {
      await refused(client);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('clients of mcphost serve over HTTP', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp([], { cwd: dir });
  });
  afterAll(() => server?.stop());

  it.each<Era>(['legacy', 'modern'])(
    'a %s-era client answers elicitation and sampling',
    async (era) => {
      const { client, asked } = askedClient(era, true);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        await exercise(client, asked);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it.each<Era>(['legacy', 'modern'])(
    'a %s-era client without the capabilities gets an error',
    async (era) => {
      const { client } = askedClient(era, false);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        await refused(client);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

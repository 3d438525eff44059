// The SDK fields the relay reads that the SDK does not publish (src/kit/mcp/sdk-bypass/sdk-private.ts):
// each is there in the installed SDK, the annexes name the SDK version they were checked against,
// and a field that is gone is said once, by name, with the caller sent the SDK's own way.
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetReported, transportAbortSignal, wireCodecOf } from '../../src/kit/mcp/sdk-bypass/sdk-private.js';
import { REPO } from '../helpers/paths.js';

const never = (message: string) => {
  throw new Error(`reported: ${message}`);
};

afterEach(() => forgetReported());

describe('the SDK private fields the relay reads', () => {
  it('finds the era codec on an SDK server and client', () => {
    for (const protocol of [
      new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }),
      new Client({ name: 'c', version: '1' }),
    ]) {
      const codec = wireCodecOf(protocol, never)!;
      expect(codec.encodeErrorCode(-32002)).toBe(-32602);
      expect(codec.validateResult('tools/call', { content: [] })).toEqual({ ok: true, value: { content: [] } });
    }
  });

  it('finds the abort signal an HTTP client transport shares between its fetches, once started', async () => {
    const refusing = createServer((_, res) => void res.writeHead(404).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`);
    try {
      const streamable = new StreamableHTTPClientTransport(url);
      await streamable.start();
      expect(transportAbortSignal(streamable, never)).toBeInstanceOf(AbortSignal);
      await streamable.close();
      const sse = new SSEClientTransport(url);
      await sse.start().catch(() => undefined);
      expect(transportAbortSignal(sse, never)).toBeInstanceOf(AbortSignal);
      await sse.close();
    } finally {
      refusing.close();
    }
  });

  it('says once, by name, that a field is gone, and gives nothing to use', () => {
    const said: string[] = [];
    expect(wireCodecOf({}, (m) => said.push(m))).toBeUndefined();
    expect(wireCodecOf({ _wireCodec: () => ({ encodeErrorCode: (c: number) => c }) }, (m) => said.push(m))).toBeUndefined();
    expect(wireCodecOf({}, (m) => said.push(m))).toBeUndefined();
    expect(transportAbortSignal({}, (m) => said.push(m))).toBeUndefined();
    expect(said).toEqual([
      expect.stringMatching(/^the MCP SDK has no Protocol\._wireCodec\(\) .*taking the SDK's own path.*sdk-bypass\/README\.md/),
      expect.stringMatching(/^the MCP SDK has no validateResult\/encodeErrorCode on the wire codec/),
      expect.stringMatching(/^the MCP SDK has no _abortController on its HTTP client transports/),
    ]);
  });
});

describe('the annexes name the SDK they were checked against', () => {
  const installed = (pkg: string) =>
    (JSON.parse(readFileSync(path.join(REPO, 'node_modules/@modelcontextprotocol', pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
  const minor = (version: string) => version.split('.').slice(0, 2).join('.');

  it.each([
    ['src/kit/mcp/sdk-bypass/README.md', ['client', 'core']],
    ['src/server/sdk-bypass/README.md', ['server', 'core']],
  ])('%s: the installed minor version (re-read the SDK and re-measure after an update)', (readme, packages) => {
    const line = readFileSync(path.join(REPO, readme), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Checked against:'));
    expect(line, 'a "Checked against:" line').toBeDefined();
    for (const pkg of packages) {
      const named = new RegExp(`@modelcontextprotocol/${pkg} (\\d+\\.\\d+\\.\\d+)`).exec(line!)?.[1];
      expect(named, `${readme} names @modelcontextprotocol/${pkg}`).toBeDefined();
      expect(minor(installed(pkg)), `${readme} was checked against ${pkg} ${named}`).toBe(minor(named!));
    }
  });
});

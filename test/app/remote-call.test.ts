// `mcphost call --url …`: calls go through the official SDK client to a running `mcphost serve`
// (here its real HTTP server on a 127.0.0.1 port, in this process), so a backend's state lives on
// between two calls from a shell.
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { runRemoteCall, type RemoteCallRequest } from '../../src/app/remote-call.js';
import { splitArgv } from '../../src/cli/call-argv.js';
import { isToolError } from '../../src/backend/errors.js';
import type { Registry } from '../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../src/server/http.js';
import { UnknownNameError } from '../../src/registry/errors.js';
import { isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const server = tempDir('mcphost-serve-');
server.write('.mcprc.yaml', `plugins:\n  lab:\n    module: ${LAB}\nhttp:\n  token: s3cret\n`);
await approve(server.dir);
const shell = tempDir('mcphost-shell-');

let registry: Registry;
let serving: HttpServing;
beforeAll(async () => {
  const opened = await openHost({ cwd: server.dir, env: isolatedEnv(server.dir), writeLog: () => undefined });
  registry = opened.registry;
  serving = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '0.0.0-test' },
    { ...opened.resolved.config.http, port: 0 },
    opened.logger,
  );
});
afterAll(async () => {
  await serving.close();
  await registry.close();
});

/** `mcphost call --url <serving> <argv…>` from another directory, with the token in the environment. */
function remote(
  argv: string[],
  env: Record<string, string> = { MCPHOST_TOKEN: 's3cret' },
  url = serving.url,
  call: Pick<RemoteCallRequest, 'signal' | 'onProgress'> = {},
) {
  const split = splitArgv(argv);
  const [first, second] = split.positionals;
  return runRemoteCall({
    cwd: shell.dir,
    env: isolatedEnv(shell.dir, env),
    writeLog: () => undefined,
    url: new URL(url),
    ...(second === undefined ? { tool: first } : { plugin: first, tool: second }),
    flags: split.flags,
    ...call,
  });
}

/** A port nothing listens on any more. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const text = (outcome: Awaited<ReturnType<typeof remote>>) => outcome.result.content.map((c) => (c as { text: string }).text).join('');

describe('call --url', () => {
  it('chains stateful tools across calls, by published or plugin-local name', async () => {
    expect(text(await remote(['lab_remember', '--value', 'build 1']))).toBe('remembered build 1');
    expect(text(await remote(['lab', 'recall']))).toBe('build 1');
  });

  it('generates flags from the schema the server lists, and reports error results as in-process', async () => {
    await expect(remote(['lab', 'read_at', '--ofset', '1'])).rejects.toThrow(
      'unknown flag --ofset for lab_read_at (did you mean --offset?); valid flags: --offset',
    );
    const refused = await remote(['lab', 'read_at', '--offset', '-1']);
    expect(refused.error).toMatchObject({ code: -32602, message: 'offset: must not be negative' });
    await expect(remote(['lab', 'read_at', '--offset', '1.5'])).rejects.toThrow('--offset expects an integer, got "1.5"');
  });

  it('relays progress, and a Ctrl-C cancels the call on the server', async () => {
    const interrupt = new AbortController();
    const seen: number[] = [];
    const outcome = await remote(['lab', 'steps', '--count', '1000', '--step-ms', '20'], undefined, undefined, {
      signal: interrupt.signal,
      onProgress: (p) => {
        seen.push(p.progress);
        if (seen.length === 2) interrupt.abort('interrupted');
      },
    });
    expect(seen.slice(0, 2)).toEqual([1, 2]);
    expect(outcome.error).toMatchObject({ kind: 'cancelled', message: 'tool lab_steps was cancelled: interrupted' });
  });

  it('suggests the closest tool the server has', async () => {
    const unknown = remote(['lab', 'recal']);
    await expect(unknown).rejects.toThrow(UnknownNameError);
    await expect(unknown).rejects.toThrow(`unknown tool "lab_recal" at ${serving.url}; did you mean lab_recall?`);
  });

  it('sends the token, and says what to start when nothing answers', async () => {
    const denied = await remote(['lab', 'recall'], {}).catch((e: unknown) => e);
    expect(isToolError(denied) && denied.code).toBe('UNAVAILABLE');
    expect((denied as Error).message).toMatch(/401/);
    const closed = await freePort();
    const url = `http://127.0.0.1:${closed}/mcp`;
    const nobody = await remote(['lab', 'recall'], {}, url).catch((e: unknown) => e);
    expect(isToolError(nobody) && nobody.code).toBe('UNAVAILABLE');
    expect((nobody as Error).message).toBe(
      `no mcphost serve answers at ${url}: connection refused at ${url} (is it running?) — start one with \`mcphost serve --http ${closed}\``,
    );
  });
});

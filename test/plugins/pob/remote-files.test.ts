// Issue 21, item 4: a build argument that names a file, from a client over HTTP, resolves only inside
// the roots (ctx.files). /etc/passwd, a missing path and a real build outside the roots get one and
// the same refusal, so a remote client learns nothing about the disk; inside the roots a path works;
// the same call over stdio (the real binary) and as a one-shot command still reads any file named.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost } from '../../../src/app/open.js';
import type { Registry } from '../../../src/registry/registry.js';
import { serveOnHttp, type HttpServing } from '../../../src/server/http.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { callInProcess } from '../../helpers/in-process.js';
import { connectStdio } from '../../helpers/mcp.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const BUILD = path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml');
const project = tempDir('mcphost-roots-');
const builds = path.join(project.dir, 'builds');
mkdirSync(builds);
copyFileSync(BUILD, path.join(builds, 'mine.xml'));
const elsewhere = tempDir('mcphost-elsewhere-');
const outside = path.join(elsewhere.dir, 'theirs.xml');
copyFileSync(BUILD, outside);
// A link inside the roots that leads out of them.
symlinkSync(elsewhere.dir, path.join(builds, 'link'));
const config = project.write('mcphost.yaml', 'plugins:\n  pob: {}\nfiles:\n  roots: [./builds]\n');

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
const textOf = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');

async function remoteHost(configFile: string) {
  const env = isolatedEnv(project.dir) as NodeJS.ProcessEnv;
  const opened = await openHost({ cwd: project.dir, env, configFile, writeLog: () => undefined, serving: true });
  const serving = await serveOnHttp(
    opened.registry,
    { name: 'mcphost', version: '0.0.0-test' },
    { ...opened.resolved.config.http, port: 0 },
    opened.logger,
  );
  const client = new Client({ name: 'remote', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  const analyze = (build: string) => client.callTool({ name: 'pob_analyze_build', arguments: { build } }) as Promise<Result>;
  return { registry: opened.registry, serving, client, analyze };
}

describe('a remote client naming files in pob build arguments', () => {
  let host: { registry: Registry; serving: HttpServing; client: Client; analyze: (build: string) => Promise<Result> };
  beforeAll(async () => {
    host = await remoteHost(config);
  });
  afterAll(async () => {
    await host.client.close();
    await host.serving.close();
    await host.registry.close();
  });

  it('gets one refusal for /etc/passwd, a missing path and a build outside the roots', async () => {
    // The roots are named to no network client: they are the server's folders.
    const refusal = `build: not allowed: a client connected over the network may name only files inside the server's file roots (files.roots; a relative path is taken from the first); send the file's content instead`;
    const answers = await Promise.all(
      [
        '/etc/passwd',
        '/no/such/dir/build.xml',
        outside,
        '../mcphost.yaml',
        path.join(builds, 'link', 'theirs.xml'),
        'link/missing.xml',
      ].map(host.analyze),
    );
    for (const answer of answers) expect({ isError: answer.isError, text: textOf(answer) }).toEqual({ isError: true, text: refusal });
  });

  it('reads a build inside the roots, by absolute or relative path, and takes share codes as ever', async () => {
    const byPath = await host.analyze(path.join(builds, 'mine.xml'));
    expect(byPath.isError).toBeFalsy();
    expect(byPath.structuredContent).toMatchObject({ source: 'file', file: path.join(builds, 'mine.xml') });
    // `file` names it as the client did: a relative name does not come back as the server's absolute path.
    expect((await host.analyze('mine.xml')).structuredContent).toMatchObject({ source: 'file', file: 'mine.xml' });
    const encoded = (await host.client.callTool({ name: 'pob_encode', arguments: { xml: 'mine.xml' } })) as Result;
    const code = textOf(encoded).trim();
    expect((await host.analyze(code)).structuredContent).toMatchObject({ source: 'code' });
    // A missing file inside the roots may be named as missing, as the client named it (not by the server's path).
    expect(textOf(await host.analyze('gone.xml'))).toBe('build: no such file: gone.xml');
  });

  it('may name no file at all when no roots are configured and no plugin setting names a path', async () => {
    const bare = await remoteHost(project.write('bare.yaml', 'plugins:\n  pob: {}\n'));
    try {
      expect(textOf(await bare.analyze(path.join(builds, 'mine.xml')))).toBe(
        "build: not allowed: a client connected over the network may name only files inside the file roots, and the server has none (files.roots); send the file's content instead",
      );
    } finally {
      await bare.client.close();
      await bare.serving.close();
      await bare.registry.close();
    }
  });
});

describe('a local client naming the same files', () => {
  it('reads any build the user names, over stdio (the real binary) and as a one-shot call', async () => {
    const stdio = await connectStdio(['--config', config], { cwd: project.dir });
    try {
      const r = (await stdio.client.callTool({ name: 'pob_analyze_build', arguments: { build: outside } })) as Result;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ source: 'file', file: outside });
    } finally {
      await stdio.close();
    }
    const oneShot = await callInProcess({
      cwd: elsewhere.dir,
      configFile: config,
      plugin: 'pob',
      tool: 'analyze_build',
      args: { build: 'theirs.xml' },
    });
    expect(oneShot.error).toBeUndefined();
    expect(oneShot.result.structuredContent).toMatchObject({ source: 'file', file: outside });
  });
});

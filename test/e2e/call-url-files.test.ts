// `mcphost call --url` with a file argument (issue 35, item 7): the server reads paths on its own
// disk, so `--build @MyBuild.xml` is read on the caller's machine and sent as content; a plain path
// the server refuses gets a hint saying how to send it, and the refusal names none of the server's
// folders. A real `mcphost serve` in one folder, the shell in another.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { SHARED_DATA } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const server = tempDir('mcphost-server-');
const shell = tempDir('mcphost-shell-');
copyFileSync(path.join(SHARED_DATA, 'pob-builds/occvortex-3_26.xml'), path.join(shell.dir, 'MyBuild.xml'));
let http: HttpServer;
beforeAll(async () => {
  http = await startHttp(['--plugins', 'pob'], { cwd: server.dir });
}, 30_000);
afterAll(() => http.stop());

const call = (args: string[]) =>
  runCli(['call', '--url', http.url, 'pob_analyze_build', ...args], { cwd: shell.dir, env: isolatedEnv(shell.dir) });

describe('call --url with a file argument', () => {
  it('reads --build @file on this machine and sends its content', async () => {
    const r = await call(['--build', '@MyBuild.xml', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structuredContent).toMatchObject({ source: 'xml' });
  });

  it("refuses a plain path with how to send it, naming none of the server's folders", async () => {
    const r = await call(['--build', 'MyBuild.xml']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('build: not allowed: a client connected over the network may name only files inside the file roots');
    expect(r.stderr).toContain(
      'MyBuild.xml is a file on this machine, but the server reads paths on its own disk: send the content with --build @MyBuild.xml',
    );
    expect(r.stderr).not.toContain(server.dir);
  });

  it('says which @file is missing, before anything is sent', async () => {
    const r = await call(['--build', '@Nope.xml']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`--build @Nope.xml: no such file (${path.join(shell.dir, 'Nope.xml')})`);
  });
});

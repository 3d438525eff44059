// `mcphost clients:add|list|remove` through the binary, and `serve` taking the token it printed:
// the token is shown once and only its hash is written to the user's config; `list`, `config` and
// `doctor` never show a token; a project file's http.clients waits for `mcphost trust`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const home = tempDir();
const work = path.join(home.dir, 'work');
mkdirSync(work);
const userConfig = path.join(home.dir, '.config', 'mcphost', 'config.yaml');
mkdirSync(path.dirname(userConfig), { recursive: true });
writeFileSync(userConfig, `# my host\nplugins:\n  kitchen:\n    module: ${KITCHEN}\n`);
const env = isolatedEnv(home.dir);

let server: HttpServer | undefined;
afterAll(() => server?.stop());

describe('mcphost clients', () => {
  let token = '';

  it('clients:add prints a fresh token once and writes its hash to the user config, keeping the rest', async () => {
    const added = await runCli(['clients:add', 'ci', '--json'], { cwd: work, env });
    expect(added.exitCode).toBe(0);
    token = (JSON.parse(added.stdout) as { token: string }).token;
    expect(token).toMatch(/^mcphost_[A-Za-z0-9_-]{43}$/);
    const written = readFileSync(userConfig, 'utf8');
    expect(written).toContain('# my host');
    expect(written).toMatch(/clients:\s+ci:\s+token: sha256:[0-9a-f]{64}/);
    expect(written).not.toContain(token);
    const again = await runCli(['clients:add', 'ci'], { cwd: work, env });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/already in .*--rotate/);
    const other = await runCli(['clients:add', 'bot'], { cwd: work, env });
    expect(other.stdout).toMatch(/token \(shown this once\): mcphost_/);
  });

  it('clients:list, config and doctor show the clients but never a token', async () => {
    const listed = await runCli(['clients:list'], { cwd: work, env });
    expect(listed.stdout).toMatch(/^ci {2}token: hash {2}tools: \*/m);
    expect(listed.stdout).toMatch(/^bot /m);
    for (const args of [['clients:list', '--json'], ['config'], ['config', '--json'], ['doctor']]) {
      const r = await runCli(args, { cwd: work, env });
      expect(r.stdout + r.stderr).not.toContain(token);
    }
  });

  it('serve takes the token and refuses others; clients:remove takes the client out', async () => {
    server = await startHttp([], { cwd: work, env });
    const client = await server.connect('modern', { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('kitchen_echo');
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(server.stderr()).not.toContain(token);
    const removed = await runCli(['clients:remove', 'ci'], { cwd: work, env });
    expect(removed.exitCode).toBe(0);
    expect(readFileSync(userConfig, 'utf8')).not.toMatch(/^\s+ci:/m);
    expect((await runCli(['clients:remove', 'ci'], { cwd: work, env })).stderr).toMatch(/no client ci/);
  });

  it("does not apply a project file's http.clients until it is approved, and says so", async () => {
    const project = tempDir();
    project.write('.mcprc.yaml', `http:\n  clients:\n    ci:\n      token: sha256:${'ab'.repeat(32)}\n`);
    const projectEnv = isolatedEnv(project.dir);
    const r = await runCli(['serve', '--plugins', 'imhex', '--transport', 'http', '--host', '0.0.0.0', '--port', '0'], {
      cwd: project.dir,
      env: projectEnv,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/http\.clients not applied/);
    expect(r.stderr).toMatch(/http\.clients of .*\.mcprc\.yaml is not applied until you approve the file: mcphost trust/);
  });
});

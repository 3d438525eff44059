// Issue 34, "Secret references": `${env:NAME}` (today's `${NAME}`), `${file:PATH}` and
// `${cmd:…}` anywhere a config value is written; the last two only in a file the user may run
// things from. Values they bring are never printed: `config`, `doctor`, `servers`, `call`, the
// logs and the errors are grepped for them through the real binary.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openConfig } from '../../src/app/open.js';
import { ConfigError } from '../../src/config/errors.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { FIXTURE_SERVER } from '../upstream/helpers.js';

const open = (cwd: string, env: Record<string, string | undefined>, configFile?: string) =>
  openConfig({ cwd, env: env as NodeJS.ProcessEnv, configFile, writeLog: () => undefined });

describe('reading references', () => {
  it('${env:NAME} is ${NAME}; ${file:PATH} is a file (relative to the config, ~/ at home); ${cmd:…} what it prints', async () => {
    const t = tempDir();
    mkdirSync(path.join(t.dir, 'keys'));
    writeFileSync(path.join(t.dir, 'keys', 'token'), 'tok-from-file\n');
    writeFileSync(path.join(t.dir, 'home-token'), 'tok-from-home\r\n');
    const file = path.join(t.dir, 'mcphost.yaml');
    writeFileSync(
      file,
      [
        'servers:',
        '  a:',
        '    url: http://127.0.0.1:1/mcp',
        '    headers:',
        '      X-Env: "${env:A_TOKEN}"',
        '      X-Legacy: "${A_TOKEN}"',
        '      X-Fallback: "${env:UNSET_ONE:-${B_TOKEN}}"',
        '      X-File: "${file:keys/token}"',
        '      X-Home: "${file:~/home-token}"',
        "      X-Cmd: '${cmd:printf %s tok-$((40+2)) | tr a-z A-Z}'",
        '      X-Braces: "${cmd:echo {a,b}}"',
        '      X-Literal: "$${env:A_TOKEN}"',
      ].join('\n'),
    );
    const env = isolatedEnv(t.dir, { A_TOKEN: 'tok-from-env', B_TOKEN: 'tok-b' });
    const { resolved } = await open(t.dir, env, file);
    const server = resolved.config.servers.a as { headers: Record<string, string> };
    expect(server.headers).toEqual({
      'X-Env': 'tok-from-env',
      'X-Legacy': 'tok-from-env',
      'X-Fallback': 'tok-b',
      'X-File': 'tok-from-file',
      'X-Home': 'tok-from-home',
      'X-Cmd': 'TOK-42',
      'X-Braces': '{a,b}',
      'X-Literal': '${env:A_TOKEN}',
    });
    expect(resolved.references.get('servers.a.headers.X-File')).toBe('${file:keys/token}');
  });

  it('says which key cannot be read, without its value: a missing file, a failing command, an unclosed reference', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir);
    const cases: Array<[string, RegExp]> = [
      ['http:\n  token: "${file:nope.txt}"\n', /http\.token: \$\{file:nope\.txt\}: cannot read .*nope\.txt \(no such file\)/],
      [
        'http:\n  token: "${cmd:echo leaked-output; exit 3}"\n',
        /http\.token: \$\{cmd:…\} exited with 3: run the command by hand to see why/,
      ],
      ['http:\n  token: "${cmd:echo x"\n', /http\.token: \$\{cmd:… is not closed/],
    ];
    for (const [text, expected] of cases) {
      const file = path.join(t.dir, 'mcphost.yaml');
      writeFileSync(file, text);
      const error = await open(t.dir, env, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      const said = `${(error as ConfigError).message}\n${(error as ConfigError).lines.map((l) => `${l.path}: ${l.message}`).join('\n')}`;
      expect(said).toMatch(expected);
      expect(said).not.toContain('leaked-output');
    }
  });
});

describe('${file:…} and ${cmd:…} in a file that is not approved', () => {
  it('neither reads nor runs, names the key and what to approve, and does both once approved', async () => {
    const home = tempDir('mcphost-refs-').dir;
    const repo = path.join(home, 'src', 'cloned');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const marker = path.join(home, 'RAN');
    const rc = path.join(repo, '.mcprc');
    writeFileSync(
      rc,
      `plugins:\n  unreal:\n    url: "http://127.0.0.1:1/\${cmd:touch ${marker}; echo x}"\n  exile:\n    url: "http://127.0.0.1:1/\${file:~/.ssh/id_ed25519}"\n  pob: {}\n`,
    );
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-BYTES');
    const env = isolatedEnv(home);
    const { resolved } = await open(repo, env);
    const unreal = resolved.unusable.get('unreal')!;
    expect(unreal.error.lines[0]).toMatchObject({
      path: 'plugins.unreal.url',
      message: `\${cmd:…} runs a command, so it applies only in a config you approved, your own, or one named with --config: run \`mcphost trust ${rc}\``,
    });
    expect(resolved.unusable.get('exile')!.error.lines[0].message).toContain('${file:…} reads one of your files');
    expect(resolved.plugins).toContain('pob');
    expect(existsSync(marker)).toBe(false);

    await approve(repo, { env });
    const approved = await open(repo, env);
    expect(approved.resolved.unusable.size).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('values from references are never printed', () => {
  it('not by config, doctor, servers, call, the logs or the errors', { timeout: 120_000 }, async () => {
    const home = tempDir('mcphost-refs-').dir;
    const secrets = { env: 'env-secret-7Qx2', file: 'file-secret-9Lm4', cmd: 'cmd-secret-3Kp8', port: 'port-secret-5Rt1' };
    writeFileSync(path.join(home, 'secret.txt'), `${secrets.file}\n`);
    const script = path.join(home, 'secret.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s' ${secrets.cmd}\n`);
    chmodSync(script, 0o755);
    const file = path.join(home, 'mcphost.yaml');
    const config = (extra = '') =>
      [
        'http:',
        `  token: "\${cmd:${script}}"`,
        extra,
        'plugins:',
        '  unreal:',
        '    url: "http://127.0.0.1:1/${env:MY_SECRET}"',
        '    epicUrl: "http://127.0.0.1:1/${file:secret.txt}/mcp"',
        '    mode: unrealmcpserver',
        'servers:',
        '  fx:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(FIXTURE_SERVER)}, stdio, "\${file:secret.txt}", "\${cmd:${script}}"]`,
        '    env: { FIXTURE_TOOLS_ONLY: "1", FX_TOKEN: "${env:MY_SECRET}" }',
        '  down:',
        '    url: "http://127.0.0.1:1/${env:MY_SECRET}/mcp"',
      ].join('\n');
    writeFileSync(file, config());
    // Named with MCPHOST_CONFIG (the user's choice, like --config): ${cmd:…} applies.
    const env = isolatedEnv(home, { MY_SECRET: secrets.env, MY_PORT: secrets.port, MCPHOST_CONFIG: file });
    const cli = (args: string[]) => runCli(args, { cwd: home, env, timeout: 60_000 });
    const outputs = await Promise.all([
      cli(['config']),
      cli(['config', '--json']),
      cli(['doctor', '--log-level', 'debug']),
      cli(['doctor', '--json']),
      cli(['servers', '--log-level', 'debug']),
      cli(['call', 'unreal', 'get_project_config', '--log-level', 'debug']),
      cli(['call', 'down', 'anything']),
    ]);
    // The references did reach their settings: the down server's URL and unreal's are in messages.
    expect(outputs[2].stdout).toContain('http://127.0.0.1:1/«redacted»');
    expect(outputs[0].stdout).toContain('${env:MY_SECRET}');
    // A value a schema refuses is named by its key, never shown.
    writeFileSync(file, config('  port: "${env:MY_PORT}"'));
    outputs.push(await cli(['config']), await cli(['doctor', '--json']));
    expect(outputs[outputs.length - 2].stderr).toContain('http.port');
    for (const [i, r] of outputs.entries()) {
      for (const secret of Object.values(secrets)) {
        expect(`${r.stdout}\n${r.stderr}`, `output ${i} shows ${secret}`).not.toContain(secret);
      }
    }
  });
});

// What reaches stderr: --log-level and --quiet, MCPHOST_LOG_LEVEL, the Godot seed's MCP_SERVER_LOG,
// then the file — and `silent`, which leaves stderr empty, progress included.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/app/open.js';
import Call from '../../src/commands/call.js';
import { isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { runCommand } from '../cli/run-command.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const t = tempDir('mcphost-log-');
t.write('.mcprc.yaml', `plugins:\n  lab:\n    module: ${LAB}\nlog:\n  level: warn\n`);
await approve(t.dir);

async function levelOf(env: Record<string, string>, flags: { logLevel?: 'silent' | 'debug' | 'info'; quiet?: boolean } = {}) {
  const lines: string[] = [];
  const opened = await openConfig({ cwd: t.dir, env: isolatedEnv(t.dir, env), ...flags, writeLog: (l) => lines.push(l) });
  opened.logger.error('an error');
  return { level: opened.logLevel, lines };
}

describe('the log level', () => {
  it('follows flags > MCPHOST_LOG_LEVEL > MCP_SERVER_LOG > file', async () => {
    expect((await levelOf({})).level).toBe('warn');
    expect((await levelOf({ MCP_SERVER_LOG: 'error' })).level).toBe('error');
    expect((await levelOf({ MCP_SERVER_LOG: 'error', MCPHOST_LOG_LEVEL: 'debug' })).level).toBe('debug');
    expect((await levelOf({ MCP_SERVER_LOG: 'silent' }, { logLevel: 'info' })).level).toBe('info');
    expect((await levelOf({ MCP_SERVER_LOG: 'debug' }, { quiet: true })).level).toBe('error');
    expect((await levelOf({}, { quiet: true, logLevel: 'debug' })).level).toBe('debug');
    expect((await levelOf({ MCP_SERVER_LOG: 'loud' })).level).toBe('warn');
  });

  it('silent drops even errors', async () => {
    expect(await levelOf({ MCP_SERVER_LOG: 'silent' })).toEqual({ level: 'silent', lines: [] });
    expect((await levelOf({}, { logLevel: 'silent' })).lines).toEqual([]);
    expect((await levelOf({})).lines).toEqual(['[mcphost] error: an error\n']);
  });
});

describe('progress of `mcphost call` on a terminal', () => {
  const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
  afterEach(() => {
    if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  });

  const callSteps = async (env: Record<string, string>, flags: string[] = []) => {
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    return runCommand(Call, ['lab', 'steps', '--count', '5', ...flags], {
      cwd: t.dir,
      env: isolatedEnv(t.dir, { MCPHOST_LOG_LEVEL: 'info', ...env }),
    });
  };

  it('is drawn at info, and absent with silent, --quiet or --json', async () => {
    const shown = await callSteps({});
    expect(shown.stdout).toBe('5 steps');
    expect(shown.stderr).toMatch(/\] +\d+% step \d of 5/);
    expect(shown.stderr).not.toContain('\n');
    for (const [env, flags] of [
      [{ MCP_SERVER_LOG: 'silent', MCPHOST_LOG_LEVEL: '' }, []],
      [{}, ['--quiet']],
      [{}, ['--json']],
    ] as const) {
      const quiet = await callSteps(env, [...flags]);
      expect(quiet.exitCode).toBe(0);
      expect(quiet.stderr, JSON.stringify([env, flags])).toBe('');
    }
  });
});

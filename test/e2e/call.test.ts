import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: hi\n`);
const env = isolatedEnv(t.dir);
const call = (args: string[], input?: string, extraEnv: Record<string, string> = {}) =>
  runCli(['call', ...args], { cwd: t.dir, env: { ...env, ...extraEnv }, input });

describe('mcphost call', () => {
  it('calls a tool in-process and prints its text', async () => {
    const r = await call(['kitchen', 'echo', '--message', 'world', '--times', '2']);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'hi world\nhi world' });
  });

  it('accepts the published name too', async () => {
    expect((await call(['kitchen', 'kitchen_echo', '--message', 'x'])).stdout).toBe('hi x');
  });

  it('prints the raw MCP result with --json', async () => {
    const r = await call(['kitchen', 'add', '--a', '1.5', '--b', '2', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ content: [{ type: 'text', text: '{\n  "sum": 3.5\n}' }], structuredContent: { sum: 3.5 } });
  });

  it('coerces flags per the schema and keeps numeric-looking strings as strings', async () => {
    const r = await call([
      'kitchen',
      'types',
      '--text',
      '007',
      '--count',
      '7',
      '--flag',
      '--tags',
      'a',
      '--tags',
      'b',
      '--options',
      '{"depth":1}',
      '--start-offset',
      '16',
      '--json',
    ]);
    expect(JSON.parse(r.stdout).structuredContent).toEqual({
      args: { text: '007', count: 7, flag: true, tags: ['a', 'b'], options: { depth: 1 }, start_offset: 16 },
    });
  });

  it('takes the whole argument object from --args JSON or stdin, flags overriding its keys', async () => {
    expect((await call(['kitchen', 'echo', '--args', '{"message":"json"}'])).stdout).toBe('hi json');
    expect((await call(['kitchen', 'echo', '--args', '-'], '{"message":"stdin","times":1}')).stdout).toBe('hi stdin');
    expect((await call(['kitchen', 'echo', '--args', '{"message":"a"}', '--message', 'b'])).stdout).toBe('hi b');
  });

  it('lets a flag that names a plugin setting set it for the call', async () => {
    expect((await call(['kitchen', 'echo', '--message', 'x', '--greeting', 'yo'])).stdout).toBe('yo x');
  });

  it('exits 1 for an unknown flag and lists the valid ones', async () => {
    const r = await call(['kitchen', 'echo', '--mesage', 'x']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('unknown flag --mesage for kitchen echo; valid flags: --message, --times');
  });

  it('exits 1 for arguments the schema rejects, naming the field', async () => {
    const r = await call(['kitchen', 'echo', '--message', 'x', '--times', '9']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/times: .*5/);
  });

  it('exits 1 for an unknown tool, suggesting the closest', async () => {
    const r = await call(['kitchen', 'ecco']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('did you mean echo');
  });

  it('exits 2 when the plugin does not exist', async () => {
    const r = await call(['nosuch', 'x']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('plugin nosuch not found');
  });

  it('exits 3 for an invalid config, naming the key', async () => {
    const r = await call(['kitchen', 'echo', '--message', 'x'], undefined, { KITCHEN_LEVEL: 'high' });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('plugins.kitchen.nested.level: expected number, got a string ("high") [env KITCHEN_LEVEL]');
  });

  it('exits 4 when the backend is unreachable and 5 when the tool fails', async () => {
    const offline = await call(['kitchen', 'offline']);
    expect(offline.exitCode).toBe(4);
    expect(offline.stderr).toContain('kitchen oven not reachable');
    const boom = await call(['kitchen', 'boom']);
    expect(boom.exitCode).toBe(5);
    expect(boom.stderr).toContain('kaboom');
    const failStart = await call(['kitchen', 'echo', '--message', 'x', '--fail-start', 'true']);
    expect(failStart.exitCode).toBe(4);
  });

  it('still prints the raw error result with --json, with the same exit code', async () => {
    const r = await call(['kitchen', 'coded', '--name', 'pie', '--json']);
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout)._meta['mcphost/error']).toEqual({
      code: 'NOT_FOUND',
      message: 'no such dish: pie',
      data: { suggestions: ['soup', 'salad'] },
    });
  });

  it('aborts at --timeout and says so', async () => {
    const r = await call(['kitchen', 'slow', '--steps', '100', '--step-ms', '50', '--timeout', '200']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('timed out after 200 ms');
  });

  it('reports progress on stderr, keeping stdout for the result', async () => {
    const r = await call(['kitchen', 'slow', '--steps', '2', '--step-ms', '1']);
    expect(r.stdout).toBe('done 2');
    expect(r.stderr).toContain('progress 1/2 step 1');
  });

  it('prints the tool description and its generated flags with --help', async () => {
    const r = await call(['kitchen', 'types', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Echoes its arguments back as structured content');
    expect(r.stdout).toContain('--mode <fast|slow>');
    expect(r.stdout).toContain('--tags <string…>');
    expect(r.stdout).toContain('--start-offset <integer>');
    expect(r.stdout).toContain('PLUGIN SETTINGS');
  });
});

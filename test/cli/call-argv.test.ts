import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseToolFlags } from '../../src/app/call/arguments.js';
import { UsageError } from '../../src/app/usage-error.js';
import { readCallFlags, splitArgv } from '../../src/cli/call-argv.js';
import { CALL_FLAGS } from '../../src/cli/flags.js';
import { toolHelp } from '../../src/cli/tool-help.js';
import Call from '../../src/commands/call.js';
import type { PublishedTool } from '../../src/registry/registry.js';

const schema = z.toJSONSchema(
  z.object({
    text: z.string().optional(),
    count: z.number().int().optional(),
    ratio: z.number().optional(),
    flag: z.boolean().optional(),
    mode: z.enum(['fast', 'slow']).optional(),
    tags: z.array(z.string()).optional(),
    ids: z.array(z.number().int()).optional(),
    options: z.object({ depth: z.number() }).optional(),
    start_offset: z.number().int().optional(),
    id: z.union([z.string(), z.number()]).optional(),
  }),
  { io: 'input' },
) as Record<string, unknown>;

const parse = (argv: string[]) => parseToolFlags(splitArgv(argv).flags, schema, 'kitchen types').args;

describe('call flags generated from a tool schema', () => {
  it('coerces numbers, integers, booleans, enums, arrays and objects per the schema', () => {
    expect(
      parse([
        '--count',
        '3',
        '--ratio=0.5',
        '--flag',
        '--mode',
        'slow',
        '--tags',
        'a',
        '--tags',
        'b',
        '--ids',
        '1',
        '--ids',
        '2',
        '--options',
        '{"depth":2}',
      ]),
    ).toEqual({
      count: 3,
      ratio: 0.5,
      flag: true,
      mode: 'slow',
      tags: ['a', 'b'],
      ids: [1, 2],
      options: { depth: 2 },
    });
  });

  it('keeps strings as strings even when they look numeric', () => {
    expect(parse(['--text', '007'])).toEqual({ text: '007' });
    expect(parse(['--id', '42'])).toEqual({ id: '42' });
  });

  it('accepts --no-flag, --flag=false, negative numbers and kebab-case for snake_case parameters', () => {
    expect(parse(['--no-flag'])).toEqual({ flag: false });
    expect(parse(['--flag=false'])).toEqual({ flag: false });
    expect(parse(['--count', '-5'])).toEqual({ count: -5 });
    expect(parse(['--start-offset', '256'])).toEqual({ start_offset: 256 });
    expect(parse(['--start_offset=16'])).toEqual({ start_offset: 16 });
  });

  it('accepts a JSON array for an array parameter', () => {
    expect(parse(['--ids', '[3,4]'])).toEqual({ ids: [3, 4] });
  });

  it('refuses bad values, naming the flag and what it expects', () => {
    expect(() => parse(['--count', 'many'])).toThrow('--count expects an integer, got "many"');
    expect(() => parse(['--count', '1.5'])).toThrow('--count expects an integer, got "1.5"');
    expect(() => parse(['--mode', 'medium'])).toThrow('--mode must be one of "fast", "slow", got "medium"');
    expect(() => parse(['--options', '{oops'])).toThrow('--options expects JSON');
    expect(() => parse(['--text'])).toThrow('--text needs a value');
    expect(() => parse(['--count', '1', '--count', '2'])).toThrow('--count given twice');
  });

  it('refuses unknown flags and lists the valid ones', () => {
    let error: unknown;
    try {
      parse(['--colour', 'red']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      'unknown flag --colour for kitchen types; valid flags: --text, --count, --ratio, --flag, --mode, --tags, --ids, --options, --start-offset, --id',
    );
  });

  it('separates host flags, and lets -- pass a parameter named like a host flag', () => {
    const split = splitArgv(['kitchen', 'types', '--json', '--timeout', '500', '-c', 'rc.yaml', '--count', '2', '--', '--json', 'x']);
    expect(split.positionals).toEqual(['kitchen', 'types']);
    expect(Object.fromEntries(split.host)).toEqual({ json: true, timeout: '500', config: 'rc.yaml' });
    expect(split.flags.map((f) => [f.name, f.value])).toEqual([
      ['count', '2'],
      ['json', 'x'],
    ]);
  });
});

describe("call's own flags, from one table", () => {
  it('reads every host flag, long or short, and checks its value', () => {
    const split = splitArgv(['x', 'y', '-q', '--url', 'http://127.0.0.1:7010/mcp', '--log-level=silent', '--timeout', '9', '--args', '{}']);
    expect(readCallFlags(split.host)).toMatchObject({
      quiet: true,
      url: new URL('http://127.0.0.1:7010/mcp'),
      logLevel: 'silent',
      timeoutMs: 9,
      args: '{}',
      json: false,
    });
    const bad = (argv: string[]) => () => readCallFlags(splitArgv(argv).host);
    expect(bad(['--url', 'localhost:7010'])).toThrow('--url expects the http(s) URL of a running mcphost serve');
    expect(bad(['--timeout', '-1'])).toThrow('--timeout expects a positive number of milliseconds, got "-1"');
    expect(bad(['--log-level', 'loud'])).toThrow('--log-level must be one of silent, error, warn, info, debug');
    expect(() => splitArgv(['x', 'y', '--timeout'])).toThrow('--timeout needs a value (<ms>)');
  });

  it('gives a parameter or setting named like a host flag to the tool after --', () => {
    const split = splitArgv(['exile', 'eval', '--json', '--', '--json', '--quiet']);
    expect(Object.fromEntries(split.host)).toEqual({ json: true });
    expect(split.flags.map((f) => [f.name, f.value])).toEqual([
      ['json', undefined],
      ['quiet', undefined],
    ]);
  });

  it("takes --url as the server only before the tool: after it, --url is the plugin's (unreal, exile)", () => {
    const remote = splitArgv(['--url', 'http://127.0.0.1:7010/mcp', 'pob', 'lua_get_stats']);
    expect(remote.host.get('url')).toBe('http://127.0.0.1:7010/mcp');
    expect(remote.positionals).toEqual(['pob', 'lua_get_stats']);
    const setting = splitArgv(['unreal', 'search_assets', '--query', 'hero', '--url', 'http://127.0.0.1:30069']);
    expect(setting.host.has('url')).toBe(false);
    expect(setting.flags.map((f) => [f.name, f.value])).toEqual([
      ['query', 'hero'],
      ['url', 'http://127.0.0.1:30069'],
    ]);
  });

  it("describes the same flags in `call --help` and in a tool's help", () => {
    const names = CALL_FLAGS.map((f) => f.name).filter((n) => n !== 'help');
    expect(Object.keys(Call.flags).sort()).toEqual([...names].sort());
    const tool = {
      publicName: 'kitchen_types',
      def: { name: 'types', description: 'Echoes', title: 'Types' },
      inputSchema: { type: 'object', properties: { json: { type: 'boolean' }, text: { type: 'string' } } },
    } as unknown as PublishedTool;
    const help = toolHelp('mcphost', 'kitchen', tool, ['url']) + '\n';
    for (const f of CALL_FLAGS) expect(help).toContain(`--${f.name}`);
    expect(help).toContain('[-- --[no-]json]');
    expect(help).toMatch(/PLUGIN SETTINGS.*\n {2}--url\n/);
  });
});

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseToolFlags, UsageError } from '../../src/app/tool-args.js';
import { splitArgv } from '../../src/cli/call-argv.js';

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

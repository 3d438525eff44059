// `mcphost call` in-process: the same config → loader → registry path as the binary, with the
// command line's flags split as the command splits them. (test/e2e/call.test.ts keeps the binary.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/app/usage-error.js';
import { targetOfPublished } from '../../src/app/call/target.js';
import { splitArgv } from '../../src/cli/call-argv.js';
import { ConfigError } from '../../src/config/errors.js';
import { ContractError } from '../../src/loader/contract.js';
import { PluginLoadError } from '../../src/loader/errors.js';
import { UnknownNameError } from '../../src/registry/errors.js';
import type { ProgressUpdate } from '../../src/backend/types.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess } from '../helpers/in-process.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const CLASH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/clash/index.js');
const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: hi\n  clash:\n    module: ${CLASH}\n`);
// The file imports modules: like a user, approve it once (HOME is t.dir, so the record stays there).
await approve(t.dir);

/** `mcphost call <argv…>` in-process: positionals and flags split as the command splits them. */
function call(argv: string[], extra: { env?: Record<string, string>; onProgress?: (u: ProgressUpdate) => void; timeoutMs?: number } = {}) {
  const split = splitArgv(argv);
  const [first, second] = split.positionals;
  return callInProcess({
    cwd: t.dir,
    env: isolatedEnv(t.dir, extra.env),
    ...(second === undefined ? { tool: first } : { plugin: first, tool: second }),
    flags: split.flags,
    onProgress: extra.onProgress,
    timeoutMs: extra.timeoutMs,
  });
}

const text = (outcome: Awaited<ReturnType<typeof call>>) => outcome.result.content.map((c) => (c as { text: string }).text).join('\n');

describe('a tool called from the command line', () => {
  it('runs with its flags and returns its text', async () => {
    expect(text(await call(['kitchen', 'echo', '--message', 'world', '--times', '2']))).toBe('hi world\nhi world');
  });

  it('answers to the published name, with or without the plugin before it', async () => {
    expect(text(await call(['kitchen', 'kitchen_echo', '--message', 'x']))).toBe('hi x');
    expect(text(await call(['kitchen_echo', '--message', 'y']))).toBe('hi y');
  });

  it('coerces flags per the schema and keeps numeric-looking strings as strings', async () => {
    const outcome = await call(['kitchen', 'types', '--text', '007', '--count', '7', '--flag', '--tags', 'a', '--tags', 'b']);
    expect(outcome.result.structuredContent).toEqual({ args: { text: '007', count: 7, flag: true, tags: ['a', 'b'] } });
    const more = await call(['kitchen', 'types', '--options', '{"depth":1}', '--start-offset', '16', '--no-flag']);
    expect(more.result.structuredContent).toEqual({ args: { options: { depth: 1 }, start_offset: 16, flag: false } });
  });

  it('lets a flag that names a plugin setting set it for the call', async () => {
    expect(text(await call(['kitchen', 'echo', '--message', 'x', '--greeting', 'yo']))).toBe('yo x');
  });

  it('reports progress with the log level the user asked for', async () => {
    const seen: ProgressUpdate[] = [];
    const outcome = await call(['kitchen', 'slow', '--steps', '3', '--step-ms', '1'], { onProgress: (u) => seen.push(u) });
    expect(text(outcome)).toBe('done 3');
    expect(seen.map((u) => `${u.progress}/${u.total} ${u.message}`)).toEqual(['1/3 step 1', '2/3 step 2', '3/3 step 3']);
  });
});

describe('a call that fails', () => {
  it('refuses an unknown flag, listing the valid ones', async () => {
    const typo = call(['kitchen', 'echo', '--mesage', 'x']);
    await expect(typo).rejects.toThrow(UsageError);
    await expect(typo).rejects.toThrow(
      'unknown flag --mesage for kitchen echo (did you mean --message?); valid flags: --message, --times; plugin settings: --greeting',
    );
  });

  it('names the field the schema rejects (an error result of kind invalid_arguments)', async () => {
    const outcome = await call(['kitchen', 'echo', '--message', 'x', '--times', '9']);
    expect(outcome.error).toMatchObject({ kind: 'invalid_arguments', message: expect.stringMatching(/times: .*<=5/) });
  });

  it('suggests the closest tool, in the form the user typed', async () => {
    await expect(call(['kitchen', 'ecco'])).rejects.toThrow(/did you mean echo/);
    await expect(call(['kitchen_ecco'])).rejects.toThrow(/did you mean kitchen_echo/);
    await expect(call(['kitchn_echo'])).rejects.toThrow(UnknownNameError);
  });

  it('tells a missing plugin and an invalid config apart', async () => {
    await expect(call(['nosuch', 'x'])).rejects.toThrow(PluginLoadError);
    const bad = call(['kitchen', 'echo', '--message', 'x'], { env: { KITCHEN_LEVEL: 'high' } });
    await expect(bad).rejects.toThrow(ConfigError);
    await expect(bad).rejects.toThrow('plugins.kitchen.nested.level: expected number, got a string ("high") [env KITCHEN_LEVEL]');
  });

  it('says whether the backend was unreachable, the tool failed, or time ran out', async () => {
    expect((await call(['kitchen', 'offline'])).error).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('oven') });
    expect((await call(['kitchen', 'boom'])).error).toMatchObject({ kind: 'tool_error', message: expect.stringContaining('kaboom') });
    expect((await call(['kitchen', 'echo', '--message', 'x', '--fail-start', 'true'])).error?.kind).toBe('unavailable');
    const late = await call(['kitchen', 'slow', '--steps', '100', '--step-ms', '50'], { timeoutMs: 100 });
    expect(late.error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('timed out after 100 ms') });
  });

  it('refuses a plugin whose setting has the name of a tool parameter, instead of taking one for the other', async () => {
    const clash = call(['clash', 'open', '--file', 'a.bin']);
    await expect(clash).rejects.toThrow(ContractError);
    await expect(clash).rejects.toThrow('setting file and the parameter file of tool open are both --file');
  });
});

describe('the plugin of a published name', () => {
  it('is the longest known plugin name that prefixes it', () => {
    expect(targetOfPublished('pob_lua_get_stats', ['pob', 'pob_lua', 'godot'])).toEqual({ plugin: 'pob_lua', tool: 'pob_lua_get_stats' });
    expect(targetOfPublished('everything_echo', ['everything', 'godot'])).toEqual({ plugin: 'everything', tool: 'everything_echo' });
    expect(() => targetOfPublished('evrything_echo', ['everything'])).toThrow(/did you mean everything_…\?/);
    expect(() => targetOfPublished('godot', ['godot'])).toThrow(UnknownNameError);
  });
});

// Each common tool error code exits with the exit code docs/reference.md's "Tool error codes" table
// gives it, through the real binary: `mcphost call` of a tool that fails with that code (a fixture,
// as a plugin's handler throws it), the schema's own refusal, and a real timeout; `--json` prints the
// code the client sees.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { documentedCodes } from '../helpers/docs.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const t = tempDir('mcphost-codes-');
t.write('.mcprc.yaml', `plugins:\n  failing:\n    module: ${path.join(FIXTURES, 'failing/index.js')}\n`);
await approve(t.dir);
const env = isolatedEnv(t.dir);
const documented = documentedCodes();
const exitOf = (code: string) => Number(documented.get(code)?.exit ?? NaN);

async function call(argv: string[]) {
  const r = await runCli(['call', 'failing', ...argv, '--json'], { cwd: t.dir, env });
  const error = (JSON.parse(r.stdout) as { error?: { code?: unknown; exit?: number } }).error;
  return { exitCode: r.exitCode, code: error?.code, exit: error?.exit, stderr: r.stderr };
}

describe('a tool error exits with its code’s documented exit code', () => {
  it.each(['INVALID_ARGUMENT', 'NOT_FOUND', 'UNAVAILABLE', 'TOOL_ERROR', 'HTTP_ERROR', 'BUSY', 'BAD_SHARE_CODE', 'EXPR_SYNTAX'])(
    '%s',
    async (code) => {
      const r = await call(['fail', '--code', code]);
      expect(documented.has(code), `${code} is documented`).toBe(true);
      expect(r).toMatchObject({ exitCode: exitOf(code), exit: exitOf(code), code });
    },
  );

  it('arguments the schema refuses: INVALID_ARGUMENTS, exit 1', async () => {
    expect(await call(['fail'])).toMatchObject({ exitCode: exitOf('INVALID_ARGUMENTS'), code: 'INVALID_ARGUMENTS' });
    expect(exitOf('INVALID_ARGUMENTS')).toBe(1);
  });

  it('a call past its --timeout: TIMEOUT', async () => {
    expect(await call(['wait', '--ms', '5000', '--timeout', '100'])).toMatchObject({ exitCode: exitOf('TIMEOUT'), code: 'TIMEOUT' });
  });

  it('a JSON-RPC code passed on: -32602 exits 1 like INVALID_ARGUMENT, another 5', async () => {
    expect(await call(['fail', '--code=-32602'])).toMatchObject({ exitCode: 1, code: -32602 });
    expect(await call(['fail', '--code=-32001'])).toMatchObject({ exitCode: 5, code: -32001 });
  });

  it('a code outside the table, or none: TOOL_ERROR', async () => {
    expect(await call(['fail', '--code', 'BAD_PARAMS'])).toMatchObject({ exitCode: exitOf('TOOL_ERROR'), code: 'TOOL_ERROR' });
    expect(await call(['fail', '--code', 'x', '--plain'])).toMatchObject({ exitCode: exitOf('TOOL_ERROR'), code: 'TOOL_ERROR' });
  });
});

// Runs the real CLI binary (bin/run.js → dist) as a child process.
import { createServer, type AddressInfo } from 'node:net';
import { execa, type Options } from 'execa';
import { BIN } from './paths.js';

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A 127.0.0.1 port nothing listens on: bound and closed again, so this machine gave it out and took it back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const NOBODY = `http://127.0.0.1:${await closedPort()}`;

/**
 * For a test whose outcome depends on what answers at the plugins' default ports, which a game
 * developer's machine may well be serving (the Unreal Editor on 8000 and 30069, the ExileApi HUD on
 * 5099): points them at a port nothing listens on, so the test sees the same machine everywhere.
 * Not in isolatedEnv itself: the environment beats a config file, whose URLs a test with a replica sets.
 */
export const NO_DEFAULT_PORTS = { UNREAL_MCP_URL: NOBODY, UNREAL_EPIC_MCP_URL: `${NOBODY}/mcp`, EXILE_URL: `${NOBODY}/mcp` };

/** Environment for a child that must not see the developer's own config or installed plugins. */
export function isolatedEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
  };
  for (const key of Object.keys(env)) if (key.startsWith('MCPHOST_')) delete env[key];
  return { ...env, ...extra };
}

export async function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeout?: number },
): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: options.env ?? isolatedEnv(options.cwd),
    extendEnv: false,
    input: options.input,
    reject: false,
    timeout: options.timeout ?? 20_000,
    stripFinalNewline: true,
  } as Options);
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? -1 };
}

/** `mcphost trust` through the binary, as a user runs it before using a project's .mcprc that imports modules or starts commands. */
export async function trustCli(cwd: string, env: Record<string, string | undefined> = isolatedEnv(cwd)): Promise<CliResult> {
  const r = await runCli(['trust'], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`mcphost trust failed (${r.exitCode}): ${r.stderr}`);
  return r;
}

// `mcphost call` without oclif: bin/run.js comes here for `call` (unless help is asked for), so a
// shell one-shot does not load @oclif/core, its plugins and every command's module (issue 25: the
// call within +250 ms of `node -e 0`; bench/startup.bench.js). What oclif would do around the
// command is done here the same way: the installed plugins are read from oclif's data folder, a
// failure is printed and exits with its code as HostCommand does, and a bug goes to oclif's own
// handler. test/cli/call-fast-path.test.ts holds both paths to the same output.
import { readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { installedPackages, userPackagesIn, type InstalledPackage, type OclifPluginLike } from '../loader/installed.js';
import { jsonEnabled, runCall } from './call-run.js';
import { exitCodeFor } from './exit-codes.js';
import { writeFailure, writeJson } from './failure-output.js';

/** oclif's data folder (Config.dataDir): MCPHOST_DATA_DIR, else XDG_DATA_HOME (or LOCALAPPDATA) / mcphost. */
function dataDir(env: NodeJS.ProcessEnv): string {
  if (env.MCPHOST_DATA_DIR) return env.MCPHOST_DATA_DIR;
  const windows = process.platform === 'win32';
  const windowsHome = env.HOMEDRIVE && env.HOMEPATH ? path.join(env.HOMEDRIVE, env.HOMEPATH) : env.USERPROFILE;
  const home = env.HOME || (windows && windowsHome) || homedir() || tmpdir();
  const base = env.XDG_DATA_HOME || (windows && env.LOCALAPPDATA) || path.join(home, '.local/share');
  return path.join(base, 'mcphost');
}

/**
 * The plugins `plugins:install` and `plugins:link` recorded, as oclif would list them; undefined when
 * one of them has oclif hooks (which only oclif runs), so that the call goes through oclif.
 */
export function installedWithoutOclif(env: NodeJS.ProcessEnv): InstalledPackage[] | undefined {
  const dir = dataDir(env);
  let recorded: unknown[];
  try {
    recorded = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))?.oclif?.plugins ?? []) as unknown[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return undefined; // oclif warns about a broken file: let it.
  }
  const linked = recorded.flatMap((p): OclifPluginLike[] => {
    const entry = p as { type?: unknown; root?: unknown };
    if (entry?.type !== 'link' || typeof entry.root !== 'string') return [];
    try {
      const pjson = JSON.parse(readFileSync(path.join(entry.root, 'package.json'), 'utf8'));
      return [{ name: String(pjson.name), version: String(pjson.version ?? '?'), root: entry.root, type: 'link', pjson }];
    } catch {
      return [];
    }
  });
  const plugins = [...userPackagesIn(dir), ...linked];
  if (plugins.some((p) => (p.pjson.oclif as { hooks?: unknown } | undefined)?.hooks)) return undefined;
  return installedPackages(plugins);
}

/** Runs `mcphost call` (`argv`: what follows `call`); false when oclif must run it instead. */
export async function main(argv: string[]): Promise<boolean> {
  const installed = installedWithoutOclif(process.env);
  if (!installed) return false;
  const json = jsonEnabled(argv, process.env);
  try {
    await runCall(argv, {
      installed,
      log: (line) => void (json || process.stdout.write(`${line}\n`)),
      logJson: writeJson,
    });
  } catch (error) {
    const exit = exitCodeFor(error);
    if (exit !== undefined) {
      writeFailure(error as Error, exit, json);
      process.exit(exit);
    }
    // A bug: reported as oclif reports it (HostCommand.toErrorJson with --json, else its stack).
    process.exitCode = process.exitCode ?? 1;
    if (json) writeJson({ error: { message: (error as Error)?.message ?? String(error), exit: Number(process.exitCode) } });
    else await (await import('@oclif/core')).handle(error as Error);
  }
  return true;
}

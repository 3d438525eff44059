// godotBinary: dump the class reference of the user's own engine with `--doctool`, once per engine
// version, into the cache folder (<cacheDir>/godot-doctool/<version>/), and serve that.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UnavailableError, type ProgressUpdate } from '../../../src/backend/index.js';

const DONE = '.mcphost-doctool.json';
const VERSION_MS = 30_000;
const DUMP_MS = 300_000;

const howToFix =
  'Set plugins.godot.godotBinary to a Godot executable (e.g. /usr/bin/godot4), or set plugins.godot.docDir to a doc/ folder instead.';

/** `godot --version`: the last line that looks like a version (3.x editors exit 255 after printing it). */
export async function godotVersion(binary: string, signal?: AbortSignal): Promise<string> {
  // Loaded here: most hosts read a doc/ folder and never start Godot.
  const { execa } = await import('execa');
  const result = await execa(binary, ['--version'], { reject: false, timeout: VERSION_MS, cancelSignal: signal, stdin: 'ignore' });
  if ((result as { code?: string }).code === 'ENOENT') {
    throw new UnavailableError(`godotBinary ${binary} was not found. ${howToFix}`);
  }
  const lines = String(result.stdout ?? '')
    .split('\n')
    .map((l) => l.trim());
  const version = lines.reverse().find((l) => /^\d+\.\d+/.test(l));
  if (result.timedOut) throw new UnavailableError(`${binary} --version did not finish within ${VERSION_MS / 1000} s. ${howToFix}`);
  if (!version) {
    const said = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new UnavailableError(
      `${binary} --version printed no Godot version (exit ${result.exitCode ?? '?'}${said ? `: ${said}` : ''}). ${howToFix}`,
    );
  }
  return version;
}

function doctoolDir(cacheDir: string, version: string): string {
  return path.join(cacheDir, 'godot-doctool', version.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** The folder of a finished dump for this version, if there is one. */
export function cachedDump(cacheDir: string, version: string): string | undefined {
  const dir = doctoolDir(cacheDir, version);
  return existsSync(path.join(dir, DONE)) ? dir : undefined;
}

export interface DumpOptions {
  /** `--version` output when already known. */
  version?: string;
  signal?: AbortSignal;
  progress?: (update: ProgressUpdate) => void;
}

/** Runs `<godot> --doctool <dir>` (headless) unless this version was dumped before; returns the folder. */
export async function dumpDocs(binary: string, cacheDir: string, options: DumpOptions = {}): Promise<string> {
  const version = options.version ?? (await godotVersion(binary, options.signal));
  const done = cachedDump(cacheDir, version);
  if (done) return done;
  const target = doctoolDir(cacheDir, version);
  const temp = `${target}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const headless = Number.parseInt(version, 10) >= 4 ? '--headless' : '--no-window';
  const args = ['--doctool', temp, headless];
  options.progress?.({ progress: 0, message: `dumping the class reference of Godot ${version} (${binary} ${args.join(' ')})` });
  const { execa } = await import('execa');
  const result = await execa(binary, args, {
    cwd: temp,
    reject: false,
    timeout: DUMP_MS,
    cancelSignal: options.signal,
    stdin: 'ignore',
    all: true,
  });
  const dumped = ['doc/classes', 'classes'].some((d) => existsSync(path.join(temp, d)));
  if (!dumped) {
    rmSync(temp, { recursive: true, force: true });
    const tail = String(result.all ?? '')
      .trim()
      .split('\n')
      .slice(-5)
      .join('\n');
    throw new UnavailableError(
      `${binary} ${args.join(' ')} wrote no class reference (exit ${result.exitCode ?? '?'}).${tail ? `\n${tail}` : ''}\n${howToFix}`,
    );
  }
  writeFileSync(path.join(temp, DONE), JSON.stringify({ binary, version, at: new Date().toISOString() }));
  rmSync(target, { recursive: true, force: true });
  renameSync(temp, target);
  return target;
}

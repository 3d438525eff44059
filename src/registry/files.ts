// ctx.files: how a tool argument that names a file becomes a path. A local client (stdio, a
// one-shot command) may name any file, resolved against the working directory, as a shell would.
// A remote client (HTTP) may name only files inside the roots: `files.roots` from .mcprc, else the
// paths the plugins' settings name (configPath() values: a doc folder, a PoB checkout, a snapshot).
// Outside them the answer is one refusal, the same whether the path exists or not, so a remote
// client learns nothing about the rest of the disk; symbolic links are followed before the check.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../backend/errors.js';
import type { FileAccess } from '../backend/types.js';
import type { HostClient } from './clients.js';

const PATH_NOT_ALLOWED = 'PATH_NOT_ALLOWED';

interface Root {
  /** As configured (absolute), and its real path. */
  given: string;
  path: string;
  /** A root that is a file allows that file alone. */
  dir: boolean;
}

export class FileRoots {
  /** The roots as given (absolute), for ctx.files.roots. */
  roots: readonly string[];
  private readonly cwd: string;
  private real?: Promise<Root[]>;

  constructor(roots: readonly string[], cwd: string) {
    this.cwd = cwd;
    this.roots = this.absolute(roots);
  }

  /** New roots (a reload): every later call sees them. */
  setRoots(roots: readonly string[]): void {
    this.roots = this.absolute(roots);
    this.real = undefined;
  }

  private absolute(roots: readonly string[]): string[] {
    return [...new Set(roots.map((r) => path.resolve(this.cwd, r)))];
  }

  /** What one client's call sees as ctx.files. */
  access(client: HostClient): FileAccess {
    if (!client.remote) {
      const roots = [...new Set([...this.roots, this.cwd])];
      return { roots, resolve: async (pathArg) => path.resolve(this.cwd, pathArg) };
    }
    return { roots: this.roots, remote: true, resolve: (pathArg, options) => this.confine(pathArg, options?.field) };
  }

  private async confine(pathArg: string, field = 'path'): Promise<string> {
    const roots = await this.realRoots();
    // The roots are the server's folders: named to its own user (config, doctor), never to a network client.
    const refuse = () =>
      new ToolError(
        `${field}: not allowed: a client connected over the network may name only files inside ${
          roots.length
            ? "the server's file roots (files.roots; a relative path is taken from the first)"
            : 'the file roots, and the server has none (files.roots)'
        }; send the file's content instead`,
        { code: PATH_NOT_ALLOWED, data: { field } },
      );
    // Relative to the first folder root; with none, a relative path names nothing a remote client may read.
    const base = roots.find((r) => r.dir)?.given;
    if (pathArg.includes('\0') || (!path.isAbsolute(pathArg) && !base)) throw refuse();
    const lexical = path.resolve(base ?? '/', pathArg);
    // Judged by name first, so a path outside is refused without touching the disk at all.
    if (!roots.some((r) => within(lexical, r.given, r.dir) || within(lexical, r.path, r.dir))) throw refuse();
    const real = await realpathLoose(lexical);
    if (!roots.some((r) => within(real, r.path, r.dir))) throw refuse();
    return real;
  }

  private realRoots(): Promise<Root[]> {
    this.real ??= Promise.all(
      this.roots.map(async (r): Promise<Root | undefined> => {
        try {
          return { given: r, path: await realpath(r), dir: (await stat(r)).isDirectory() };
        } catch {
          return undefined; // A root that does not exist allows nothing.
        }
      }),
    ).then((roots) => roots.filter((r): r is Root => r !== undefined));
    return this.real;
  }
}

function within(file: string, root: string, dir: boolean): boolean {
  if (!dir) return file === root;
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The real path of `file`, or, when it does not exist, the real path of its nearest existing
 * ancestor with the rest appended: a missing file behind a link that leaves the roots is judged by
 * where the link goes, like an existing one.
 */
async function realpathLoose(file: string): Promise<string> {
  const rest: string[] = [];
  for (let at = file; ; at = path.dirname(at)) {
    try {
      return path.join(await realpath(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return file;
      rest.push(path.basename(at));
    }
  }
}

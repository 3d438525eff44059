// The build store: builds as values, one file `<build_id>.xml` per build in one folder, the id
// derived from the content (SHA-256 of the normalised XML). Any worker, any host process and any
// replica pointed at the same folder (a shared volume) can load a build made elsewhere. Files are
// written whole to a temporary name and renamed into place (write-file-atomic), so a reader never
// sees half a file; reads check the content against the id anyway (a copy made by other means
// could be cut short), and a file that does not match is dropped. The store keeps at most
// `maxBuilds` files and `maxBytes`; reading or writing a build marks it used, the least recently
// used go first. A store file is read as every file input is (a regular file by its type, opened
// without blocking: a FIFO named like a build never holds a thread or a worker), and every look at
// the folder has its own deadline, so a hung network volume answers "unavailable" within it
// instead of holding the call's worker for good.
import { createHash } from 'node:crypto';
import { readdir, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { UnavailableError, type Logger } from '../../../src/backend/index.js';
import { NotRegularFileError, readRegularFile, writeFileAtomic } from '../../../src/kit/index.js';

/** What a build_id looks like: the first 128 bits of the SHA-256, in hex. */
export const BUILD_ID = /^[0-9a-f]{32}$/;

/** The same build saved on Windows or with a byte-order mark gets the same id. */
export function normalizeXml(xml: string): string {
  return xml
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .trim();
}

export function buildIdOf(xml: string): string {
  return createHash('sha256').update(normalizeXml(xml)).digest('hex').slice(0, 32);
}

export interface StoreOptions {
  dir: string;
  maxBuilds: number;
  maxBytes: number;
  /** How long one read, write or look at the folder may take (default 5 s). */
  timeoutMs?: number;
  logger: Pick<Logger, 'debug' | 'warn'>;
}

/** A temporary file left by a writer that died is removed after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Pruning lists the folder: every this many writes, not on each. */
const PRUNE_EVERY = 32;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class BuildStore {
  private writes = 0;
  private pruning?: Promise<void>;
  /** Ids this process wrote or read, newest last: a call naming one needs no look at the folder to be queued. */
  private readonly seen = new Set<string>();

  constructor(readonly options: StoreOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  private file(id: string): string {
    return path.join(this.options.dir, `${id}.xml`);
  }

  /** Stores the build (if it is not there already) and returns its id. */
  async put(xml: string): Promise<string> {
    const text = normalizeXml(xml);
    const id = buildIdOf(text);
    if ((await this.get(id)) !== undefined) return id;
    try {
      await this.within('write', writeFileAtomic(this.file(id), text));
    } catch (error) {
      // Two writers of one id write the same bytes: if the other's rename won, the build is there.
      if ((await this.get(id)) === undefined)
        throw new UnavailableError(
          `cannot write the build store at ${this.options.dir} (${(error as Error).message}): set plugins.pob.lua.store (POB_BUILD_STORE) to a writable folder`,
          { cause: error },
        );
    }
    if (this.writes++ % PRUNE_EVERY === 0) void this.prune();
    this.remember(id);
    return id;
  }

  /** True for an id this process stored or read (the file may have been pruned since: `get` tells). */
  knows(id: string): boolean {
    return this.seen.has(id);
  }

  private remember(id: string): void {
    this.seen.delete(id);
    this.seen.add(id);
    if (this.seen.size > this.options.maxBuilds) this.seen.delete(this.seen.values().next().value!);
  }

  /** The build's XML, or undefined when the store does not hold it (or holds a damaged copy). */
  async get(id: string): Promise<string | undefined> {
    if (!BUILD_ID.test(id)) return undefined;
    let text: string;
    try {
      text = await this.within('read', readRegularFile(this.file(id), 'utf8'));
    } catch (error) {
      if (missing(error)) return undefined;
      if (error instanceof NotRegularFileError) {
        this.options.logger.warn(`pob build store: ${id}.xml is a ${error.kind}, not a build; leaving it alone`);
        return undefined;
      }
      if (error instanceof UnavailableError) throw error;
      throw new UnavailableError(`cannot read the build store at ${this.options.dir}: ${(error as Error).message}`, { cause: error });
    }
    if (buildIdOf(text) !== id) {
      this.options.logger.warn(`pob build store: ${id}.xml does not hold the build its name says (cut short or changed); dropping it`);
      await unlink(this.file(id)).catch(() => undefined);
      return undefined;
    }
    const now = new Date();
    await utimes(this.file(id), now, now).catch(() => undefined);
    this.remember(id);
    return text;
  }

  /** Whether the store holds a file for this id (not checked: `get` checks). */
  async has(id: string): Promise<boolean> {
    if (!BUILD_ID.test(id)) return false;
    return this.within('look', stat(this.file(id))).then(
      () => true,
      (error) => {
        if (error instanceof UnavailableError) throw error;
        return false;
      },
    );
  }

  /** The store's answer, or UnavailableError once its deadline passed (the request itself may still hang in the kernel). */
  private within<T>(what: 'read' | 'write' | 'look', work: Promise<T>): Promise<T> {
    const { timeoutMs = 5_000, dir } = this.options;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new UnavailableError(
              `the build store at ${dir} did not answer a ${what} within ${timeoutMs} ms (a hung network volume?): check the folder, or raise plugins.pob.lua.storeTimeoutMs (POB_STORE_TIMEOUT_MS)`,
            ),
          ),
        timeoutMs,
      );
      timer.unref();
    });
    work.catch(() => undefined);
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /** Drops the least recently used builds past the bounds, and temporary files a dead writer left. One run at a time. */
  prune(): Promise<void> {
    this.pruning ??= this.pruneNow().finally(() => (this.pruning = undefined));
    return this.pruning;
  }

  private async pruneNow(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.options.dir);
    } catch {
      return;
    }
    const builds: Array<{ file: string; at: number; size: number }> = [];
    const now = Date.now();
    for (const name of names) {
      const file = path.join(this.options.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (/^[0-9a-f]{32}\.xml$/.test(name)) builds.push({ file, at: info.mtimeMs, size: info.size });
      else if (/^[0-9a-f]{32}\.xml\.\d+$/.test(name) && now - info.mtimeMs > STALE_TEMP_MS) await unlink(file).catch(() => undefined);
    }
    builds.sort((a, b) => b.at - a.at);
    let count = 0;
    let bytes = 0;
    let dropped = 0;
    for (const build of builds) {
      count++;
      bytes += build.size;
      // The newest build stays whatever its size: it was just written or read.
      if (count === 1 || (count <= this.options.maxBuilds && bytes <= this.options.maxBytes)) continue;
      await unlink(build.file).catch(() => undefined);
      dropped++;
    }
    if (dropped) this.options.logger.debug(`pob build store: dropped the ${dropped} least recently used builds`);
  }
}

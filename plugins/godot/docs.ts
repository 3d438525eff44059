// The plugin's state: where the docs come from, the loaded index (warm from disk or built cold,
// with progress), the watcher, and the checks behind start() and health().
import { requireApproved, type Logger, type ProgressUpdate } from '../../src/backend/index.js';
import type { Settings } from './config.js';
import { discover, type Corpus } from './corpus/discover.js';
import { cachedDump, dumpDocs, godotVersion } from './corpus/doctool.js';
import { watchXml } from './corpus/watch.js';
import { buildIndex } from './search-index/build.js';
import { DocIndex } from './search-index/doc-index.js';
import { loadIndex, saveIndex } from './search-index/persist.js';
import { prepareLexicon } from './lookup/lexicon.js';
import { manualFromDir, manualFromFile, type ManualSource } from './manual/source.js';

export interface LoadContext {
  progress?: (update: ProgressUpdate) => void;
}

export interface SourceInfo {
  docDir: string;
  files: number;
  godotVersion?: string;
}

export class GodotDocs {
  private index?: DocIndex;
  private loading?: Promise<DocIndex>;
  private unwatch?: () => void;
  private closed = false;
  /** The XML changed while a build was running: build again when it ends. */
  private dirty = false;
  /** `godotBinary --version`, asked once. */
  private version?: string;
  /** Outlives any one call: a build started for one caller serves the others too. */
  private readonly lifetime = new AbortController();

  constructor(
    readonly settings: Settings,
    private readonly logger: Logger,
    private readonly onRebuilt: () => void = () => undefined,
  ) {}

  get loaded(): DocIndex | undefined {
    return this.index;
  }

  /**
   * Quick check that the docs can be served (for start and health): the doc folder holds class XML,
   * or the Godot binary answers `--version`. Throws UnavailableError saying what to fix.
   */
  async check(signal?: AbortSignal): Promise<SourceInfo> {
    const { docDir, godotBinary, cacheDir } = this.settings;
    // A manualDir without .rst pages is reported now, not at the first search.
    if (this.settings.manualDir) manualFromDir(this.settings.manualDir);
    if (docDir !== undefined) {
      const corpus = discover(docDir);
      return { docDir: corpus.root, files: corpus.files.length };
    }
    this.version ??= await godotVersion(this.binary(), signal);
    const version = this.version;
    const dump = cachedDump(cacheDir, version);
    return {
      docDir: dump ?? `${godotBinary} --doctool (not dumped yet)`,
      files: dump ? discover(dump).files.length : 0,
      godotVersion: version,
    };
  }

  /** The Godot binary to dump the docs with (docDir is unset), once the file that names it is approved. */
  private binary(): string {
    requireApproved({ withheld: this.settings.withheld }, ['godotBinary'], 'the Godot docs cannot be dumped');
    return this.settings.godotBinary!;
  }

  /** Class names without building anything: from the index when loaded, else from the file names. */
  quickClassNames(): string[] {
    if (this.index) return this.index.classNames();
    try {
      const { docDir, cacheDir } = this.settings;
      const dir = docDir ?? (this.version ? cachedDump(cacheDir, this.version) : undefined);
      return dir === undefined ? [] : discover(dir).files.map((f) => f.rel.slice(f.rel.lastIndexOf('/') + 1, -'.xml'.length));
    } catch {
      return [];
    }
  }

  /** The index, loading or building it on first use (single flight: concurrent callers share it). */
  get(ctx: LoadContext = {}): Promise<DocIndex> {
    if (this.index) return Promise.resolve(this.index);
    this.loading ??= this.load(ctx).finally(() => {
      this.loading = undefined;
      if (this.dirty) {
        this.dirty = false;
        this.rebuild();
      }
    });
    return this.loading;
  }

  private async corpus(ctx: LoadContext): Promise<Corpus> {
    const { docDir, cacheDir } = this.settings;
    if (docDir === undefined) this.version ??= await godotVersion(this.binary(), this.lifetime.signal);
    const dir =
      docDir ?? (await dumpDocs(this.binary(), cacheDir, { version: this.version, signal: this.lifetime.signal, progress: ctx.progress }));
    return discover(dir, (m) => this.logger.warn(m));
  }

  /** The manual's words: the user's checkout (manualDir) or the file shipped with the plugin. */
  private manual(): ManualSource {
    return this.settings.manualDir ? manualFromDir(this.settings.manualDir) : manualFromFile();
  }

  private async load(ctx: LoadContext): Promise<DocIndex> {
    const corpus = await this.corpus(ctx);
    const manual = this.manual();
    const saved = loadIndex(this.settings.indexPath, corpus, manual.stamp);
    let index: DocIndex;
    if ('index' in saved) {
      index = new DocIndex(saved.index, corpus.root);
      this.logger.debug(`loaded the saved index ${this.settings.indexPath}`);
      for (const warning of index.warnings) this.logger.warn(warning);
    } else {
      this.logger.info(`building the Godot index from ${corpus.files.length} class files in ${corpus.root} (${saved.stale})`);
      const built = await buildIndex(corpus, {
        signal: this.lifetime.signal,
        progress: ctx.progress,
        warn: (m) => this.logger.warn(m),
        manual,
      });
      index = new DocIndex(built, corpus.root);
      try {
        saveIndex(this.settings.indexPath, corpus, built, manual.stamp);
      } catch (error) {
        this.logger.warn(
          `cannot save the index to ${this.settings.indexPath} (${(error as Error).message}); it will be rebuilt next start`,
        );
      }
    }
    if (this.closed) throw new Error('the godot plugin was stopped');
    this.index = index;
    // Once the call that loaded the index is answered, build what later searches need.
    setImmediate(() => prepareLexicon(index));
    if (this.settings.watch && !this.unwatch) this.unwatch = watchXml(corpus.dirs, () => this.rebuild(), this.logger);
    return index;
  }

  /** Drops the index and builds a fresh one in the background (calls meanwhile wait for it). */
  private rebuild(): void {
    if (this.closed) return;
    if (this.loading) {
      this.dirty = true;
      return;
    }
    this.logger.info('Godot class XML changed: rebuilding the index');
    this.index = undefined;
    this.get()
      .then(() => this.onRebuilt())
      .catch((error: Error) => this.logger.warn(`rebuilding the index failed: ${error.message}`));
  }

  close(): void {
    this.closed = true;
    this.lifetime.abort();
    this.unwatch?.();
    this.unwatch = undefined;
  }
}

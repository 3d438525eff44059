// A config problem names where the value came from, the key path, what was expected and what was found.
import type { IssueLine } from '../kit/zod-issues.js';

export class ConfigError extends Error {
  readonly summary: string;
  readonly lines: IssueLine[];
  readonly file?: string;
  /** The backend whose entry or config this is about, once the loader knows it. */
  readonly plugin?: string;
  constructor(summary: string, lines: IssueLine[] = [], file?: string, plugin?: string) {
    const body = lines.map((l) => `  ${l.path}: ${l.message}`).join('\n');
    super(body ? `${summary}\n${body}` : summary);
    this.name = 'ConfigError';
    this.summary = summary;
    this.lines = lines;
    this.file = file;
    this.plugin = plugin;
  }

  /** The same error, said of `plugin`. */
  about(plugin: string): ConfigError {
    return this.plugin === plugin ? this : new ConfigError(this.summary, this.lines, this.file, plugin);
  }
}

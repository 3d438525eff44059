// A config problem names where the value came from, the key path, what was expected and what was found.
import type { IssueLine } from '../lib/zod-issues.js';

export class ConfigError extends Error {
  readonly lines: IssueLine[];
  readonly file?: string;
  constructor(summary: string, lines: IssueLine[] = [], file?: string) {
    const body = lines.map((l) => `  ${l.path}: ${l.message}`).join('\n');
    super(body ? `${summary}\n${body}` : summary);
    this.name = 'ConfigError';
    this.lines = lines;
    this.file = file;
  }
}

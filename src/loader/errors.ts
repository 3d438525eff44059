import { notTrustedText, type TrustStatus } from '../config/trust.js';

export class PluginLoadError extends Error {
  readonly plugin: string;
  constructor(plugin: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PluginLoadError';
    this.plugin = plugin;
  }
}

/**
 * A backend that a config file starts or imports (a `servers` entry, `plugins.<name>.module`, a
 * client's project entry) while that file is not trusted: nothing of it ran.
 */
export class NotTrustedError extends PluginLoadError {
  readonly file: string;
  /** `not trusted: run \`mcphost trust <file>\``, what listings show beside the entry. */
  readonly hint: string;
  constructor(plugin: string, key: string, trust: TrustStatus) {
    const hint = notTrustedText(trust);
    super(plugin, `${plugin} (${key} in ${trust.file}): ${hint}`);
    this.name = 'NotTrustedError';
    this.file = trust.file;
    this.hint = hint;
  }
}

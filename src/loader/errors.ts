export class PluginLoadError extends Error {
  readonly plugin: string;
  constructor(plugin: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PluginLoadError';
    this.plugin = plugin;
  }
}

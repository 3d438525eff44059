// YAML (and JSON, which YAML reads too) for `.mcprc`, with the `yaml` library's own guard against
// alias expansion: js-yaml, cosmiconfig's default, expands every alias while building the value.
import { ConfigError } from './errors.js';
import { CONFIG_LIMITS } from './limits.js';

/** Async so that the YAML parser loads only when a YAML file is found (most runs have none, or JSON). */
export async function loadYaml(file: string, content: string): Promise<unknown> {
  const { parse } = await import('yaml');
  try {
    return parse(content, { maxAliasCount: CONFIG_LIMITS.maxAliasCount, logLevel: 'error', prettyErrors: true });
  } catch (error) {
    const message = (error as Error).message;
    if (/alias/i.test(message) && /resource exhaustion/i.test(message)) {
      throw new ConfigError(
        `Invalid config in ${file}: its YAML aliases (*name) repeat more than ${CONFIG_LIMITS.maxAliasCount} values once expanded; ` +
          'mcphost refuses such a file (write the values out, or use fewer aliases)',
        [],
        file,
      );
    }
    // The parser recurses per nesting level; a stack overflow means the file is nested too deeply.
    if (error instanceof RangeError || /call stack/i.test(message)) {
      throw new ConfigError(`Invalid config in ${file}: nested too deeply to read; mcphost refuses such a file`, [], file);
    }
    throw new ConfigError(`Cannot read config ${file}: ${message}`, [], file);
  }
}

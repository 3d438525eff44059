// Reads one config file: data (YAML, JSON, package.json's "mcphost" key) parsed from the very bytes
// whose hash decides trust, or code run from those bytes too (only once trusted: see find.ts):
// .js, .cjs and .mjs through import-verified.ts, .ts through cosmiconfig's loader, which compiles
// the content it is given. cosmiconfig's explorer is not used: creating one runs a
// `.config/config.js` of the working directory (its meta-config search), and its `$import` would
// read further files.
import path from 'node:path';
import { ConfigError } from './errors.js';
import { isExecutableConfig } from './search.js';
import { loadYaml } from './yaml.js';

export async function parseConfigFile(file: string, input: string | Buffer): Promise<unknown> {
  const content = typeof input === 'string' ? input : input.toString('utf8');
  try {
    if (path.basename(file) === 'package.json') return (JSON.parse(content) as { mcphost?: unknown }).mcphost;
    // JSON is YAML too, but read with cosmiconfig's JSON loader; an explicit file with another
    // extension (.mcprc.example, .mcprc.local) is read as YAML.
    const ext = path.extname(file);
    if (isExecutableConfig(file) && ext !== '.ts') {
      const { importVerified } = await import('./import-verified.js');
      return await importVerified(file, typeof input === 'string' ? Buffer.from(input, 'utf8') : input);
    }
    // cosmiconfig's TypeScript loader compiles the content it is given, not what the path holds now.
    if (isExecutableConfig(file) || ext === '.json') {
      const { defaultLoaders } = await import('./code-loaders.js');
      return await defaultLoaders[ext as keyof typeof defaultLoaders](file, content);
    }
    return await loadYaml(file, content);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot read config ${file}: ${(error as Error).message}`, [], file);
  }
}

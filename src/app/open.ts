// The path every command takes: config → loader → backends → registry. Commands call these and
// render what they get back; `serve` then hands the registry to a transport.
import type { Logger, LogLevel } from '../backend/types.js';
import { findConfig } from '../config/find.js';
import { resolveConfig, type Override, type ResolvedConfig } from '../config/resolve.js';
import { createLogger } from '../lib/logger.js';
import { ConfigError } from '../config/errors.js';
import type { InstalledPackage } from '../loader/installed.js';
import { loadBackends, type LoadedBackend, type LoaderOptions } from '../loader/load.js';
import { PluginLoadError } from '../loader/errors.js';
import { Registry } from '../registry/registry.js';

export interface OpenOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--config FILE` (wins over MCPHOST_CONFIG and the search). */
  configFile?: string;
  /** `--plugins a,b`. */
  plugins?: string[];
  overrides?: Override[];
  installed?: InstalledPackage[];
  logLevel?: LogLevel;
  /** Write log lines somewhere other than stderr (tests). */
  writeLog?: (line: string) => void;
  builtinRoot?: string;
}

export interface OpenedConfig {
  resolved: ResolvedConfig;
  logger: Logger;
}

export async function openConfig(options: OpenOptions): Promise<OpenedConfig> {
  const file = options.configFile ?? (options.env.MCPHOST_CONFIG || undefined);
  const found = await findConfig({ cwd: options.cwd, file });
  const overrides = [...(options.overrides ?? [])];
  if (options.logLevel) overrides.push({ path: 'log.level', value: options.logLevel, flag: '--log-level' });
  const resolved = resolveConfig({ found, env: options.env, cwd: options.cwd, overrides, plugins: options.plugins });
  const logger = createLogger({ level: resolved.config.log.level, write: options.writeLog });
  return { resolved, logger };
}

/** How the loader finds backends for this invocation (one place for every command). */
export function loaderOptions(opened: OpenedConfig, options: Pick<OpenOptions, 'installed' | 'builtinRoot'>): LoaderOptions {
  const { resolved, logger } = opened;
  return {
    resolved,
    installed: options.installed,
    builtinRoot: options.builtinRoot,
    logger,
    upstream: async (name, server) => (await import('../upstream/backend.js')).createUpstreamBackend(name, server, resolved.env),
  };
}

export interface OpenedHost extends OpenedConfig {
  registry: Registry;
  loaded: LoadedBackend[];
  failures: Array<PluginLoadError | ConfigError>;
}

export interface OpenHostOptions extends OpenOptions {
  /** Backends to load instead of the resolved `plugins` list (e.g. the one `call` names). */
  only?: string[];
  /** Fail on the first backend that does not load, instead of serving the rest. */
  strict?: boolean;
}

export async function openHost(options: OpenHostOptions): Promise<OpenedHost> {
  const { resolved, logger } = await openConfig(options);
  const names = options.only ?? resolved.plugins;
  if (names.length === 0) {
    throw new PluginLoadError(
      '',
      'No plugins to serve: pass --plugins (e.g. --plugins godot,pob), set MCPHOST_PLUGINS, or add a plugins section to .mcprc' +
        (resolved.file ? ` (${resolved.file})` : ''),
    );
  }
  const { loaded, failures } = await loadBackends(names, loaderOptions({ resolved, logger }, options));
  const configFailure = failures.find((f) => f instanceof ConfigError);
  if (configFailure) throw configFailure;
  if (failures.length > 0 && (options.strict || loaded.length === 0)) throw failures[0];
  for (const failure of failures) logger.warn(failure.message);
  const registry = await Registry.create(loaded, { logger, timeouts: resolved.config.timeouts, limits: resolved.config.limits });
  return { resolved, logger, registry, loaded, failures };
}

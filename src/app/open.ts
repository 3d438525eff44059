// The path every command takes: config → loader → backends → registry. Commands call these and
// render what they get back; `serve` then hands the registry to a transport.
import type { Logger } from '../backend/types.js';
import { findConfig } from '../config/find.js';
import { resolveConfig, type Override, type ResolvedConfig } from '../config/resolve.js';
import { createLogger, isLogLevel, type HostLogLevel } from '../lib/logger.js';
import { ConfigError } from '../config/errors.js';
import { notTrustedText, TRUST_ALL_ENV } from '../config/trust.js';
import type { InstalledPackage } from '../loader/installed.js';
import { loadBackends, type LoadedBackend, type LoaderOptions } from '../loader/load.js';
import { NotTrustedError, PluginLoadError } from '../loader/errors.js';
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
  /** `--log-level`. */
  logLevel?: HostLogLevel;
  /** `--quiet`: errors only (below an explicit --log-level). */
  quiet?: boolean;
  /** Write log lines somewhere other than stderr (tests). */
  writeLog?: (line: string) => void;
  builtinRoot?: string;
}

export interface OpenedConfig {
  resolved: ResolvedConfig;
  logger: Logger;
  /** What the host prints on stderr: its logs, and (at info and debug) progress. */
  logLevel: HostLogLevel;
}

export async function openConfig(options: OpenOptions): Promise<OpenedConfig> {
  const file = options.configFile ?? (options.env.MCPHOST_CONFIG || undefined);
  const found = await findConfig({ cwd: options.cwd, file, env: options.env });
  const overrides = [...(options.overrides ?? [])];
  const flagLevel = options.logLevel ?? (options.quiet ? 'error' : undefined);
  // `silent` is the host's own level, not a config value: it never reaches the config schema.
  if (flagLevel && flagLevel !== 'silent')
    overrides.push({ path: 'log.level', value: flagLevel, flag: options.logLevel ? '--log-level' : '--quiet' });
  const resolved = resolveConfig({ found, env: options.env, cwd: options.cwd, overrides, plugins: options.plugins });
  const logLevel = flagLevel === 'silent' ? 'silent' : hostLogLevel(resolved, options.env);
  const logger = createLogger({ level: logLevel, write: options.writeLog });
  reportTrust(resolved, logger);
  return { resolved, logger, logLevel };
}

/**
 * Says on stderr what of the config did not apply because it is not trusted, and, loudly (at error
 * level, so --quiet keeps it), every file that MCPHOST_TRUST_ALL let run without approval.
 */
function reportTrust(resolved: ResolvedConfig, logger: Logger): void {
  const { trust, file } = resolved;
  if (trust && !trust.trusted && resolved.unread) logger.warn(`${file} is code and was not run: ${notTrustedText(trust)}`);
  if (trust && !trust.trusted && resolved.withheld.length > 0) {
    logger.warn(`${file}: ${resolved.withheld.join(', ')} not applied (defaults used): ${notTrustedText(trust)}`);
  }
  const all = [trust, ...[...resolved.imported.values()].map((i) => i.trust)].filter((t) => t?.reason === 'trust-all');
  for (const t of new Set(all.map((t) => t!.file))) {
    logger.error(`${TRUST_ALL_ENV}=1: ${t} runs without approval (commands, modules and code it names); unset it to stop`);
  }
}

/**
 * Precedence: flags > MCPHOST_LOG_LEVEL > MCP_SERVER_LOG > file > default. MCP_SERVER_LOG
 * (silent|error|warn|info|debug) is the variable the Godot docs server this host grew from reads;
 * users who set it for that server get the same quiet here.
 */
function hostLogLevel(resolved: ResolvedConfig, env: NodeJS.ProcessEnv): HostLogLevel {
  const source = resolved.sources.get('log.level')?.kind;
  const seed = env.MCP_SERVER_LOG?.trim().toLowerCase();
  if (source !== 'flag' && source !== 'env' && isLogLevel(seed)) return seed;
  return resolved.config.log.level;
}

/** How the loader finds backends for this invocation (one place for every command). */
export function loaderOptions(opened: OpenedConfig, options: Pick<OpenOptions, 'installed' | 'builtinRoot'>): LoaderOptions {
  const { resolved, logger } = opened;
  return {
    resolved,
    installed: options.installed,
    builtinRoot: options.builtinRoot,
    logger,
    upstream: async (name, server) => {
      const { createUpstreamBackend, pinningFor } = await import('../upstream/backend.js');
      return createUpstreamBackend(name, server, resolved.env, pinningFor(name, server, resolved));
    },
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
  /** `mcphost serve`: listings answer at once and clients hear of changes (BackendContext.serving). */
  serving?: boolean;
  /** A listing: backends that are not trusted are reported beside the others, even when nothing else loads. */
  listing?: boolean;
}

export async function openHost(options: OpenHostOptions): Promise<OpenedHost> {
  const opened = await openConfig(options);
  const { resolved, logger } = opened;
  const names = options.only ?? resolved.plugins;
  if (names.length === 0) {
    throw new PluginLoadError(
      '',
      'No plugins to serve: pass --plugins (e.g. --plugins godot,pob), set MCPHOST_PLUGINS, or add a plugins section to .mcprc' +
        (resolved.file ? ` (${resolved.file})` : '') +
        (resolved.unread && resolved.trust ? `; ${resolved.file} was not read: ${notTrustedText(resolved.trust)}` : '') +
        // No config at all (a new user's first folder): the command that writes one.
        (resolved.file ? '' : '. To start, `mcphost init` writes a .mcprc here with the plugins that work on this machine'),
    );
  }
  const { loaded, failures } = await loadBackends(names, loaderOptions(opened, options));
  // One backend that cannot be used (its entry, its config, its module) is reported and skipped;
  // the others are served. A listing reports the skipped ones itself (listing.ts).
  const reported = options.listing && failures.every((f) => f instanceof NotTrustedError || f instanceof ConfigError);
  if (failures.length > 0 && (options.strict || (loaded.length === 0 && !reported))) throw failures[0];
  for (const failure of failures) if (!(options.listing && failure instanceof ConfigError)) logger.warn(failure.message);
  // Imported here, not above: `call` (prepareOneShot) opens no surface, and its start-up should not
  // load the search index and the MCP client the surface needs.
  const { toolSurface } = await import('../discover/surface.js');
  const registry = await Registry.create(loaded, {
    logger,
    timeouts: resolved.config.timeouts,
    limits: { ...resolved.config.limits, taskResultBytes: resolved.config.tasks.resultBytes },
    serving: options.serving,
    files: { roots: resolved.config.files.roots, cwd: resolved.cwd },
  });
  toolSurface(registry, logger).configure(resolved.config.tools);
  return { ...opened, registry, loaded, failures };
}

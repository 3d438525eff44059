// The host's part of `.mcprc`. Each plugin validates its own section with its `configSchema`;
// here a plugin section only carries the keys the host itself reads.
import * as z from 'zod';
import { namedClientsSchema } from './named-clients.js';

export const HOST_PLUGIN_KEYS = ['enabled', 'module', 'eager', 'timeoutMs', 'prefix'] as const;

const positiveMs = z.number().int().positive();

/** `https://app.example`, `http://localhost:5173`: a scheme, a host and (unless the scheme's default) a port. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return url.origin !== 'null' && url.pathname === '/' && !url.search && !url.hash && !url.username;
  } catch {
    return false;
  }
}

/** A value HTTP would carry unchanged in a header: no leading or trailing whitespace, no line breaks. */
const headerSafe = (text: string) => text === text.trim() && !/[\r\n]/.test(text);

export const pluginSectionSchema = z.looseObject({
  enabled: z.boolean().optional().describe('serve this plugin when --plugins is not given (default true)'),
  module: z.string().min(1).optional().describe('path of a backend module, for a plugin that is neither built in nor installed'),
  eager: z.boolean().optional().describe('start the backend when serving starts instead of on first use'),
  timeoutMs: positiveMs.optional().describe('tool-call timeout for this plugin'),
  prefix: z
    .boolean()
    .optional()
    .describe('publish tool and prompt names with the plugin name in front (default true); false publishes them as they are'),
});

const upstreamCommon = {
  enabled: z.boolean().optional().describe('serve this server when --plugins is not given (default true)'),
  eager: z.boolean().optional().describe('connect when serving starts instead of on first use'),
  timeoutMs: positiveMs.optional().describe('tool-call timeout; on expiry the call is cancelled upstream too'),
  connectTimeoutMs: positiveMs.optional().describe('time allowed to start or reach the server and finish initialize (default 30000)'),
  allowedTools: z.array(z.string()).optional().describe('publish only these upstream tools (names or * globs)'),
  blockedTools: z.array(z.string()).optional().describe('never publish these upstream tools (names or * globs)'),
  prefix: z
    .boolean()
    .optional()
    .describe(
      "publish the server's tools and prompts as <name>_<tool> (default true); false publishes its own names, and a clash with another's is a start-up error",
    ),
  pinTools: z
    .enum(['block', 'warn', 'off'])
    .optional()
    .describe(
      "a tool whose definition changed since the server was approved, or that is new: block withholds it until `mcphost trust --tools <name>` (default for a project's files), warn serves it with a warning (default in your own config), off compares nothing",
    ),
  protocol: z
    .enum(['auto', '2025-11-25', '2026-07-28'])
    .optional()
    .describe(
      'protocol revision spoken to the server: 2025-11-25 (default), 2026-07-28, or auto (try 2026-07-28 first, fall back to 2025-11-25; on stdio the probe costs a second start of the command)',
    ),
};

// `type` is what Claude Code, Cursor and Claude Desktop write; mcphost picks the transport from
// `command` or `url` and only checks that the two agree.
const stdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  ...upstreamCommon,
});

/** How mcphost signs in to an HTTP server that asks for OAuth (src/upstream/oauth); every key optional. */
const upstreamOAuthSchema = z.strictObject({
  clientId: z
    .string()
    .min(1)
    .optional()
    .describe('a client registered in advance with the authorization server (for servers without dynamic registration)'),
  clientSecret: z.string().min(1).optional().describe('its secret, as a reference (${VAR}): never written into the file'),
  clientMetadataUrl: z
    .url({ protocol: /^https$/ })
    .optional()
    .describe('an https URL of a Client ID Metadata Document describing mcphost, used as the client id where the server supports it'),
  scopes: z
    .array(z.string().min(1))
    .optional()
    .describe("scopes asked for at sign-in (default: the ones the server's challenge or metadata names)"),
  redirectPort: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(
      'port of the sign-in redirect on 127.0.0.1 (default 0: any free port; set one when the client was registered with an exact redirect URI)',
    ),
});

const httpServerSchema = z.strictObject({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  oauth: z
    .union([z.literal(false), upstreamOAuthSchema])
    .optional()
    .describe('OAuth sign-in (`mcphost auth <name>`); on by default for a server without an Authorization header, false turns it off'),
  ...upstreamCommon,
});

export const upstreamServerSchema = z.union([stdioServerSchema, httpServerSchema]);

/** Project files of MCP clients whose servers mcphost can call by name (see clients.ts). */
export const IMPORT_KINDS = ['claude-code', 'cursor'] as const;

export const hostConfigSchema = z.strictObject({
  plugins: z.record(z.string(), pluginSectionSchema).default({}),
  servers: z.record(z.string(), upstreamServerSchema).default({}),
  mcpServers: z
    .record(z.string(), upstreamServerSchema)
    .optional()
    .describe('the same as servers, in the shape Claude Desktop, Claude Code and Cursor write (a name may not be in both)'),
  imports: z
    .array(z.enum(IMPORT_KINDS))
    .default([...IMPORT_KINDS])
    .describe(
      "clients whose project file's servers can be called by name: claude-code (.mcp.json), cursor (.cursor/mcp.json); [] for none",
    ),
  http: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(7010),
      token: z
        .string()
        .min(1)
        .refine(headerSafe, 'has leading or trailing whitespace (or a line break), which HTTP strips from headers; remove it')
        .optional(),
      allowedOrigins: z
        .array(
          z
            .string()
            .refine(
              isOrigin,
              'expected an origin as a browser sends it: scheme://host[:port], e.g. https://app.example or http://localhost:5173',
            ),
        )
        .default([])
        .describe(
          "browser origins allowed besides the server's own (http://127.0.0.1:<port>, http://localhost:<port>, http://[::1]:<port>)",
        ),
      allowedHosts: z.array(z.string()).default([]),
      maxBodyBytes: z
        .number()
        .int()
        .positive()
        .default(4 * 1024 * 1024),
      sessionIdleMs: positiveMs.default(30 * 60_000).describe('a 2025-era session idle this long is closed'),
      maxSessions: z
        .number()
        .int()
        .positive()
        .default(1000)
        .describe('sessions kept at once; the longest idle is closed first, and with none idle a newcomer is refused (503, Retry-After)'),
      maxSessionsPerClient: z
        .number()
        .int()
        .positive()
        .default(100)
        .describe(
          'sessions one caller (named client, token, OAuth subject, else address) may hold; past it its own longest idle is closed, or with none idle the newcomer is refused (429, Retry-After)',
        ),
      auth: z
        .strictObject({
          issuer: z.url({ protocol: /^https?$/ }).describe("the OpenID Connect / OAuth authorization server's issuer URL"),
          audience: z
            .url({ protocol: /^https?$/ })
            .optional()
            .describe("mcphost's resource URI, the audience its tokens must name (default: the URL served, http://<host>:<port>/mcp)"),
          jwksUri: z
            .url({ protocol: /^https?$/ })
            .optional()
            .describe("the issuer's signing keys (default: jwks_uri from its metadata)"),
          scopes: z.array(z.string().min(1)).default([]).describe('scopes every token must carry (advertised in the metadata)'),
          resourceName: z.string().min(1).optional().describe('the name clients show for this server'),
        })
        .optional()
        .describe('clients sign in against an OpenID Connect provider; every request carries its access token (a JWT)'),
      clients: namedClientsSchema,
      replicaId: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/, 'letters, digits and dashes (up to 63), starting with a letter or digit')
        .optional()
        .describe(
          'this replica behind a load balancer: 2025-era session ids and 2026-era task ids start with `<replicaId>.`, so the balancer routes them back',
        ),
    })
    .prefault({}),
  timeouts: z
    .strictObject({
      toolMs: positiveMs.default(60_000),
      startMs: positiveMs.default(30_000),
      shutdownMs: positiveMs.default(2_000),
      firstListMs: z
        .number()
        .int()
        .min(0)
        .max(60_000)
        .default(5_000)
        .describe(
          "serve: how long a listing waits for a mounted server still starting that has no list cached, before it answers without the server's tools (0: at once); list_changed follows",
        ),
    })
    .prefault({}),
  cacheDir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "caches (the godot index, an upstream's last tool list): one folder per plugin below it (default: the user's cache directory)",
    ),
  limits: z
    .strictObject({
      resultBytes: z
        .number()
        .int()
        .positive()
        .default(8 * 1024 * 1024)
        .describe('largest tool result or resource read; a larger one is refused with "result too large"'),
    })
    .prefault({}),
  tasks: z
    .strictObject({
      resultBytes: z
        .number()
        .int()
        .positive()
        .default(128 * 1024 * 1024)
        .describe("what the results of finished tasks may hold together; past it the oldest finished task's result goes first"),
    })
    .prefault({}),
  log: z.strictObject({ level: z.enum(['error', 'warn', 'info', 'debug']).default('info') }).prefault({}),
  audit: z
    .strictObject({
      file: z
        .string()
        .min(1)
        .optional()
        .describe(
          'the audit trail (one JSON line per tool call, read and prompt), written as <name>.1<ext>, <name>.2<ext>, …; unset: none',
        ),
      arguments: z.boolean().default(false).describe('keep each call’s arguments in the trail (credentials redacted)'),
      maxBytes: z
        .number()
        .int()
        .min(1024)
        .default(10 * 1024 * 1024)
        .describe('size of one file of the trail before the next is started'),
      keep: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(5)
        .describe('older files of the trail kept besides the one being written; the oldest is removed past it'),
    })
    .prefault({}),
  tools: z
    .strictObject({
      mode: z
        .enum(['flat', 'discover'])
        .default('flat')
        .describe('flat: every tool is listed; discover: three meta-tools (find, describe, call) plus the pinned tools'),
      pinned: z
        .array(z.string().min(1))
        .default([])
        .describe('tools listed beside the meta-tools in discover mode: public names or * globs (godot_search, pob_lua_*)'),
    })
    .prefault({}),
  files: z
    .strictObject({
      roots: z
        .array(z.string().min(1))
        .optional()
        .describe(
          'folders (or single files) that tool arguments of remote (HTTP) clients may name; default: the paths the plugin settings name',
        ),
    })
    .prefault({}),
});

/**
 * Keys that widen who can reach the host or what it reads for them. From a file that is not trusted
 * they are withheld (their defaults apply) until it is approved, like its commands.
 */
export const WIDENING_KEYS = [
  'http.host',
  'http.allowedOrigins',
  'http.allowedHosts',
  'http.auth',
  'http.clients',
  'files.roots',
  'audit.file',
] as const;

export type HostConfig = z.output<typeof hostConfigSchema>;
export type PluginSection = z.output<typeof pluginSectionSchema>;
export type UpstreamServerConfig = z.output<typeof upstreamServerSchema>;
export type HttpAuthConfig = NonNullable<HostConfig['http']['auth']>;

/** Host settings that environment variables set (flags are mapped by each command). */
export const HOST_ENV: Record<string, string> = {
  'http.host': 'MCPHOST_HOST',
  'http.port': 'MCPHOST_PORT',
  'http.token': 'MCPHOST_TOKEN',
  'http.replicaId': 'MCPHOST_REPLICA_ID',
  'timeouts.toolMs': 'MCPHOST_TIMEOUT_MS',
  'log.level': 'MCPHOST_LOG_LEVEL',
  'tools.mode': 'MCPHOST_TOOL_MODE',
  cacheDir: 'MCPHOST_CACHE_DIR',
};

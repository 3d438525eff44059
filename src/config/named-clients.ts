// `http.clients.<name>`: the callers an HTTP host knows by name — how each proves who it is (its
// bearer token, kept as a hash or a reference, or an OAuth subject or scope mapped onto it), the
// tools and backends it may use, and its limits. Validated here; enforced in src/registry/policy.ts,
// src/registry/caller-limits.ts and src/server/auth/.
import * as z from 'zod';

/** `sha256:` and the hex digest of the token: what `mcphost clients:add` writes. */
export const TOKEN_HASH = /^sha256:[0-9a-f]{64}$/;

export const CLIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

const globs = z.array(z.string().min(1).max(200)).max(500);

const limitSchema = z.strictObject({
  rate: z
    .strictObject({
      perMinute: z.number().positive().max(1_000_000).describe('calls a minute, refilled continuously'),
      burst: z
        .number()
        .int()
        .positive()
        .max(1_000_000)
        .optional()
        .describe('calls at once after a quiet spell (default: one minute’s worth)'),
    })
    .optional()
    .describe('a token bucket: past it a call is refused with -32029 and the seconds to wait'),
  concurrency: z.number().int().positive().max(10_000).optional().describe('calls running at once; past it a call is refused at once'),
});

const namedClientSchema = z
  .strictObject({
    token: z
      .string()
      .min(1)
      .optional()
      .describe('sha256:<hex> of its bearer token (mcphost clients:add writes one), or a reference: ${env:NAME}, ${file:PATH}, ${cmd:…}'),
    tools: z
      .strictObject({
        allow: globs.default(['*']).describe('public tool names or * globs it may list and call'),
        deny: globs.default([]).describe('names or globs it may not, whatever allow says'),
      })
      .prefault({}),
    backends: z
      .strictObject({
        allow: globs.optional().describe('backends whose resources and prompts it may read (default: those it may call a tool of)'),
        deny: globs.default([]),
      })
      .prefault({}),
    limits: limitSchema
      .extend({ tools: z.record(z.string().min(1), limitSchema).default({}).describe('limits of tools (names or globs) for this client') })
      .prefault({}),
    subjects: z.array(z.string().min(1)).default([]).describe('OAuth subjects (`sub`) signed in through http.auth that are this client'),
    scopes: z.array(z.string().min(1)).default([]).describe('OAuth scopes whose holders are this client (when no subject names another)'),
  })
  .refine((c) => c.token !== undefined || c.subjects.length > 0 || c.scopes.length > 0, {
    message: 'no way to be this client: give it a token (mcphost clients:add NAME), subjects or scopes',
  });

export const namedClientsSchema = z
  .record(z.string().regex(CLIENT_NAME, 'a client name is letters, digits, _ . - (up to 63)'), namedClientSchema)
  .default({})
  .describe('named HTTP clients: their token (a hash or a reference), the tools they may use, their limits');

export type NamedClientConfig = z.output<typeof namedClientSchema>;

/**
 * The clients whose token is written as it is: a token is kept as its hash, or behind a reference
 * whose value stays out of the file. Answers the key paths with what to write instead.
 */
export function plainTokens(
  clients: Record<string, NamedClientConfig>,
  references: ReadonlyMap<string, string>,
): Array<{ path: string; message: string }> {
  return Object.entries(clients)
    .filter(([name, c]) => c.token !== undefined && !TOKEN_HASH.test(c.token) && !references.has(`http.clients.${name}.token`))
    .map(([name]) => ({
      path: `http.clients.${name}.token`,
      message: `a token written as it is; keep its hash (sha256:<hex>, which \`mcphost clients:add ${name}\` writes) or a reference such as \${env:MCPHOST_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_TOKEN}`,
    }));
}

// SEP-2243's custom headers: a tool argument whose schema property carries `x-mcp-header: Name` is
// mirrored by the client into an `Mcp-Param-Name` header (plain, or `=?base64?…?=` for what a header
// cannot carry as it is), so that a gateway can route on it. A server that reads the body must check
// that the two agree, and refuse a request where they do not with HTTP 400 and -32020. The SDK
// checks this only for its high-level McpServer; mcphost serves through the low-level Server, so
// the check is here, against the schema the registry publishes.
import type { IncomingHttpHeaders } from 'node:http';

export interface ParamHeader {
  /** Where the argument is, from the arguments object down through `properties`. */
  path: string[];
  header: string;
}

/** The `x-mcp-header` declarations of an input schema (only along `properties` chains, as the spec allows). */
export function paramHeaders(schema: unknown, path: string[] = []): ParamHeader[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as { properties?: Record<string, unknown>; 'x-mcp-header'?: unknown };
  const found: ParamHeader[] = [];
  if (path.length > 0 && typeof node['x-mcp-header'] === 'string' && node['x-mcp-header'] !== '') {
    found.push({ path, header: node['x-mcp-header'] });
  }
  for (const [key, child] of Object.entries(node.properties ?? {})) found.push(...paramHeaders(child, [...path, key]));
  return found;
}

const BASE64 = /^=\?base64\?([^?]*)\?=$/;
const BASE64_ALPHABET = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header's value as the client meant it; undefined for malformed Base64. */
function decode(raw: string): string | undefined {
  const match = BASE64.exec(raw);
  if (!match) return raw;
  if (!BASE64_ALPHABET.test(match[1])) return undefined;
  return Buffer.from(match[1], 'base64').toString('utf8');
}

function at(args: unknown, path: string[]): unknown {
  let value = args;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** Why the request's `Mcp-Param-*` headers disagree with its arguments, or undefined when they agree. */
export function paramHeaderMismatch(declared: ParamHeader[], args: unknown, headers: IncomingHttpHeaders): string | undefined {
  for (const { path, header } of declared) {
    const name = `mcp-param-${header.toLowerCase()}`;
    const sent = headers[name];
    const raw = Array.isArray(sent) ? sent.join(',') : sent?.trim();
    const value = at(args, path);
    const present = value !== undefined && value !== null;
    if (raw === undefined) {
      if (present) return `argument ${path.join('.')} is in the body but its Mcp-Param-${header} header is missing`;
      continue;
    }
    if (!present) return `Mcp-Param-${header} is sent but argument ${path.join('.')} is not`;
    const decoded = decode(raw);
    if (decoded === undefined) return `Mcp-Param-${header} is not valid Base64 inside =?base64?…?=`;
    if (decoded !== String(value))
      return `Mcp-Param-${header} (${JSON.stringify(decoded.slice(0, 100))}) does not match argument ${path.join('.')}`;
  }
  return undefined;
}

// Which published resource or template answers a `resources/read` URI. Exact URIs first, then
// templates as RFC 6570 reads them (a simple `{var}` holds no `/`). A template that forwards the
// URI to a server matching it itself (`passThrough`, a mounted MCP server's) is then also matched
// the way such servers do: each expression takes everything up to the next literal, slashes
// included (UnrealMCPServer's `unreal+t3d://{filepath}` ↔ `unreal+t3d:///Game/BP.BP`). Last, a
// URI whose scheme only one backend publishes goes to that backend when it forwards URIs.
import type { UriTemplate as SdkUriTemplate } from '@modelcontextprotocol/server';

// Loaded on the first read: one-shot commands that read nothing do not pay for the server package.
let UriTemplate: typeof SdkUriTemplate | undefined;

interface Published {
  plugin: string;
  def: { passThrough?: boolean };
}
type PublishedResource = Published & { def: { uri: string } };
type PublishedTemplate = Published & { def: { uriTemplate: string } };

export type Route<R, T> = { kind: 'resource'; target: R } | { kind: 'template'; target: T; variables: Record<string, string | string[]> };

/** A URI longer than this is never matched (an unknown resource, not seconds of matching). */
export const MAX_URI_LENGTH = 64 * 1024;

export async function route<R extends PublishedResource, T extends PublishedTemplate>(
  uri: string,
  resources: Map<string, R>,
  templates: T[],
): Promise<Route<R, T> | undefined> {
  const fixed = resources.get(uri);
  if (fixed) return { kind: 'resource', target: fixed };
  if (uri.length > MAX_URI_LENGTH) return undefined;
  UriTemplate ??= (await import('@modelcontextprotocol/server')).UriTemplate;
  for (const target of templates) {
    const variables = strictMatch(target.def.uriTemplate, uri);
    if (variables) return { kind: 'template', target, variables };
  }
  for (const target of templates) {
    if (!target.def.passThrough) continue;
    const variables = looseMatch(target.def.uriTemplate, uri);
    if (variables) return { kind: 'template', target, variables };
  }
  return schemeRoute(uri, resources, templates);
}

function strictMatch(template: string, uri: string): Record<string, string | string[]> | undefined {
  try {
    return new UriTemplate!(template).match(uri) ?? undefined;
  } catch {
    return undefined; // a template the SDK cannot parse is matched loosely or not at all
  }
}

/** `unreal+t3d:///x` → `unreal+t3d`; undefined for a string with no scheme. */
export function schemeOf(uri: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase();
}

function schemeRoute<R extends PublishedResource, T extends PublishedTemplate>(
  uri: string,
  resources: Map<string, R>,
  templates: T[],
): Route<R, T> | undefined {
  const scheme = schemeOf(uri);
  if (!scheme) return undefined;
  const owners = new Set<string>();
  let forwarder: Route<R, T> | undefined;
  for (const target of resources.values()) {
    if (schemeOf(target.def.uri) !== scheme) continue;
    owners.add(target.plugin);
    if (target.def.passThrough) forwarder ??= { kind: 'resource', target };
  }
  for (const target of templates) {
    if (schemeOf(target.def.uriTemplate) !== scheme) continue;
    owners.add(target.plugin);
    if (target.def.passThrough) forwarder ??= { kind: 'template', target, variables: {} };
  }
  return owners.size === 1 ? forwarder : undefined;
}

type Part = { literal: string } | { operator: string; names: string[] };

function parse(template: string): Part[] | undefined {
  const parts: Part[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    if (open < 0) {
      parts.push({ literal: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ literal: template.slice(at, open) });
    const close = template.indexOf('}', open);
    if (close < 0) return undefined;
    const body = template.slice(open + 1, close);
    const operator = /^[+#./;?&]/.test(body) ? body[0] : '';
    const names = body
      .slice(operator.length)
      .split(',')
      .map((n) => n.replace(/\*$|:\d+$/, '').trim())
      .filter(Boolean);
    if (names.length === 0) return undefined;
    parts.push({ operator, names });
    at = close + 1;
  }
  return parts;
}

const PREFIX: Record<string, string> = { '#': '#', '.': '.', '/': '/', ';': ';', '?': '?', '&': '&' };

/**
 * Matches the way UnrealMCPServer's FUMCP_UriTemplate::FindMatch does (and loosely enough for
 * other servers, which get the final say): literals in order, each expression taking everything
 * up to the first occurrence of the next literal, or to the end. Linear in the URI's length.
 */
export function looseMatch(template: string, uri: string): Record<string, string | string[]> | undefined {
  const parts = parse(template);
  if (!parts) return undefined;
  const variables: Record<string, string | string[]> = {};
  let rest = uri;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if ('literal' in part) {
      if (!rest.startsWith(part.literal)) return undefined;
      rest = rest.slice(part.literal.length);
      continue;
    }
    const query = part.operator === '?' || part.operator === '&';
    const prefix = PREFIX[part.operator];
    if (prefix) {
      if (rest[0] !== prefix) {
        if (query) continue;
        return undefined;
      }
      rest = rest.slice(1);
    }
    const next = parts[i + 1];
    const boundary = next === undefined ? '' : 'literal' in next ? next.literal : (PREFIX[next.operator] ?? '');
    const end = boundary ? rest.indexOf(boundary) : rest.length;
    if (end < 0 && next !== undefined && 'literal' in next) return undefined;
    const value = rest.slice(0, end < 0 ? rest.length : end);
    if (value === '' && !query) return undefined;
    assign(variables, part, value);
    rest = rest.slice(value.length);
  }
  return rest === '' ? variables : undefined;
}

function assign(variables: Record<string, string | string[]>, part: { operator: string; names: string[] }, value: string): void {
  if (part.operator === '?' || part.operator === '&') {
    for (const pair of value.split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && part.names.includes(pair.slice(0, eq))) variables[pair.slice(0, eq)] = decode(pair.slice(eq + 1));
    }
    return;
  }
  const values = part.names.length > 1 ? value.split(',') : [value];
  part.names.forEach((name, index) => {
    if (values[index] !== undefined) variables[name] = decode(values[index]);
  });
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// `ui://` URIs two backends both publish (the same app server mounted twice, two servers built from
// one template). A view's URI must keep its scheme (SEP-1865: clients render only `ui://`), so a
// clashing URI is renamed inside it: `ui://get-time/mcp-app.html` of backend `clock` becomes
// `ui://clock+get-time/mcp-app.html`, for every backend that publishes it (none keeps the bare URI,
// so no client reaches one server's view while meaning the other's, whatever the order of .mcprc).
// Every reference is rewritten the same way: tools' and resources' `_meta`, the resource list,
// results (`_meta`, resource links, embedded resources) and read contents; a read or a subscription
// of the new URI reaches the backend under the URI it published. URIs nobody else publishes, and
// every other scheme, are left as they are (other schemes keep the first backend's, as before).
import type { ContentBlock, ResourceContents, ToolMeta, ToolResult } from '../backend/types.js';

/** One backend's renamed URIs: as it publishes them → as mcphost publishes them. */
export type UiRenames = ReadonlyMap<string, string>;

const UI = 'ui://';

export function isUiUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(UI);
}

/** The `ui://` URIs a tool's `_meta` points to (both spellings of the view's URI). */
export function viewUris(meta: ToolMeta | undefined): string[] {
  return [meta?.ui?.resourceUri, meta?.['ui/resourceUri']].filter(isUiUri);
}

function renamedUri(plugin: string, uri: string): string {
  return `${UI}${plugin}+${uri.slice(UI.length)}`;
}

/**
 * The renames of each backend, from the `ui://` URIs each publishes (listed resources and tools'
 * views). `taken`: every URI published as it is, which a new name must not meet.
 */
export function uiRenames(
  published: ReadonlyArray<{ plugin: string; uris: Iterable<string> }>,
  taken: ReadonlySet<string>,
  onClash: (message: string) => void,
): Map<string, UiRenames> {
  const owners = new Map<string, Set<string>>();
  for (const { plugin, uris } of published) {
    for (const uri of uris) {
      if (!isUiUri(uri)) continue;
      let set = owners.get(uri);
      if (!set) owners.set(uri, (set = new Set()));
      set.add(plugin);
    }
  }
  const renames = new Map<string, Map<string, string>>();
  for (const [uri, plugins] of owners) {
    if (plugins.size < 2) continue;
    for (const plugin of plugins) {
      const renamed = renamedUri(plugin, uri);
      if (taken.has(renamed)) {
        onClash(`${uri} of plugin ${plugin} cannot be published as ${renamed}, which a backend publishes itself; keeping it as it is`);
        continue;
      }
      let map = renames.get(plugin);
      if (!map) renames.set(plugin, (map = new Map()));
      map.set(uri, renamed);
    }
  }
  return renames;
}

/** A JSON value with each string that is a renamed URI replaced (a copy; `skip`: keys left untouched). */
export function renameIn<T>(value: T, renames: UiRenames, skip?: ReadonlySet<string>): T {
  if (typeof value === 'string') return (renames.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => renameIn(v, renames, skip)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = skip?.has(key) ? v : renameIn(v, renames, skip);
  return out as T;
}

/** What a content block holds that is not a reference: left byte for byte. */
const PAYLOAD = new Set(['text', 'blob', 'data']);

/** A tool's result with its references renamed: `_meta`, resource links, embedded resources (never text, data or structuredContent). */
export function renameInResult(result: ToolResult, renames: UiRenames): ToolResult {
  return {
    ...result,
    content: result.content.map((block) => renameIn(block, renames, PAYLOAD) as ContentBlock),
    ...(result._meta && { _meta: renameIn(result._meta, renames) }),
  };
}

/** A read's contents with their URIs and `_meta` renamed; the view's HTML is untouched. */
export function renameInContents(contents: ResourceContents[], renames: UiRenames): ResourceContents[] {
  return contents.map((c) => renameIn(c, renames, PAYLOAD));
}

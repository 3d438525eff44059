// The plugin's MCP Apps views (ui/: built by `npm run build` into dist/plugins/imhex/ui/, one
// self-contained HTML file each): the resources that serve them, and the `_meta` a tool names
// its view with. Hosts without MCP Apps never see either; the tools' text and structured results
// stay complete.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UnavailableError, type ResourceDef, type ToolMeta, VIEW_MIME_TYPE } from '../../src/backend/index.js';

export const HEX_VIEW = 'ui://imhex/hex.html';
export const MAP_VIEW = 'ui://imhex/file-map.html';

/** A tool's `_meta` naming its view (both spellings: the flat key is the older one some hosts read). */
export const viewMeta = (uri: string): ToolMeta => ({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });

/** Built pages live under dist/: beside the compiled plugin, or, from the TypeScript sources, in the repository's dist/. */
function builtPage(name: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.basename(path.resolve(here, '../..')) === 'dist';
  return path.join(compiled ? here : path.resolve(here, '../../dist/plugins/imhex'), 'ui', name);
}

function view(uri: string, file: string, title: string, description: string): ResourceDef {
  let html: Promise<string> | undefined;
  return {
    uri,
    name: `imhex-${file.replace('.html', '')}-view`,
    title,
    description,
    mimeType: VIEW_MIME_TYPE,
    // No network at all (the CSP's default), and a frame around it.
    _meta: { ui: { prefersBorder: true } },
    async read() {
      const page = builtPage(file);
      if (!existsSync(page)) throw new UnavailableError(`the view ${uri} is not built (${page} is missing): run npm run build`);
      html ??= readFile(page, 'utf8').catch((error: unknown) => {
        html = undefined;
        throw error;
      });
      return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: await html, _meta: { ui: { prefersBorder: true } } }] };
    },
  };
}

export const viewResources: ResourceDef[] = [
  view(
    HEX_VIEW,
    'hex.html',
    'imhex: bytes',
    'Hex view of imhex_read_bytes and imhex_search: offsets, hex, ASCII, selection and matches marked',
  ),
  view(MAP_VIEW, 'file-map.html', 'imhex: file map', 'Entropy and byte classes per block of imhex_file_map; a click reads the block'),
];

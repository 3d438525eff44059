// The plugin's MCP Apps views (ui/: built by `npm run build` into dist/plugins/pob/ui/, one
// self-contained HTML file each): the resources that serve them, and the `_meta` a tool names
// its view with. Hosts without MCP Apps never see either; the tools' text and structured results
// stay complete.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UnavailableError, type ResourceDef, type ToolMeta, VIEW_MIME_TYPE } from '../../../src/backend/index.js';

export const BUILD_VIEW = 'ui://pob/build.html';
export const COMPARE_VIEW = 'ui://pob/compare.html';

/** A tool's `_meta` naming its view (both spellings: the flat key is the older one some hosts read). */
export const viewMeta = (uri: string): ToolMeta => ({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });

/** Built pages live under dist/: beside the compiled plugin, or, from the TypeScript sources, in the repository's dist/. */
function builtPage(name: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.basename(path.resolve(here, '../../..')) === 'dist';
  return path.join(compiled ? path.dirname(here) : path.resolve(here, '../../../dist/plugins/pob'), 'ui', name);
}

function view(uri: string, file: string, title: string, description: string): ResourceDef {
  let html: Promise<string> | undefined;
  return {
    uri,
    name: `pob-${file.replace('.html', '')}-view`,
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
    BUILD_VIEW,
    'build.html',
    'pob: build',
    'Build panel of pob_analyze_build: life, energy shield, mana, damage, resistances, main skill',
  ),
  view(COMPARE_VIEW, 'compare.html', 'pob: build comparison', 'What changed between two builds (pob_compare_builds), as a chart'),
];

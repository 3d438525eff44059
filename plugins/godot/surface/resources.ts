// Resource templates: godot://class/<Class>, godot://symbol/<Class>/<kind>/<name> (Markdown pages)
// and godot://search?q=<q>&kind=<kind> (the search results as JSON).
import { ToolError, type BackendContext, type CallContext, type ResourceTemplateDef } from '../../../src/backend/index.js';
import type { GodotConfig } from '../config.js';
import { SYMBOL_KINDS, type SymbolKind } from '../model.js';
import { resolveClass, resolveSymbol } from '../lookup/resolve.js';
import { search, SEARCH_KINDS, type SearchKind } from '../lookup/search.js';
import { classUri, decodeVariable } from '../uri.js';
import { classDoc } from '../view/class-doc.js';
import { classMarkdown, symbolMarkdown } from '../view/markdown.js';
import { symbolDoc } from '../view/symbol-doc.js';
import type { IndexFor } from './tools.js';

export type NamesFor = (ctx: BackendContext<GodotConfig>) => string[];

function required(variables: Record<string, string | string[]>, key: string, uri: string): string {
  const value = decodeVariable(variables[key]);
  if (value === undefined || value === '') throw new ToolError(`${uri}: ${key} is missing`, { code: 'INVALID_ARGUMENT' });
  return value;
}

function completeClass(namesFor: NamesFor) {
  return (value: string, ctx: BackendContext<GodotConfig>) => {
    const p = value.toLowerCase();
    return namesFor(ctx)
      .filter((n) => n.toLowerCase().startsWith(p))
      .sort();
  };
}

export function godotResources(indexFor: IndexFor, namesFor: NamesFor): ResourceTemplateDef<GodotConfig>[] {
  return [
    {
      uriTemplate: 'godot://class/{name}',
      name: 'godot-class',
      title: 'Godot class reference',
      description: 'One class as Markdown: inheritance, description, properties, methods, signals, constants, theme items.',
      mimeType: 'text/markdown',
      list: (ctx) => namesFor(ctx).map((name) => ({ uri: classUri(name), name, title: `Godot class ${name}`, mimeType: 'text/markdown' })),
      complete: { name: completeClass(namesFor) },
      read: async (uri, variables, ctx) => {
        const index = await indexFor(ctx as CallContext<GodotConfig>);
        return classMarkdown(classDoc(index, resolveClass(index, required(variables, 'name', uri))));
      },
    },
    {
      uriTemplate: 'godot://symbol/{className}/{kind}/{name}',
      name: 'godot-symbol',
      title: 'Godot class member',
      description: `One member as Markdown; kind is one of ${SYMBOL_KINDS.join(', ')}. Inherited members resolve to their declaring class.`,
      mimeType: 'text/markdown',
      complete: {
        className: completeClass(namesFor),
        kind: (value: string) => SYMBOL_KINDS.filter((k) => k.startsWith(value)),
      },
      read: async (uri, variables, ctx) => {
        const kind = required(variables, 'kind', uri);
        if (!(SYMBOL_KINDS as readonly string[]).includes(kind)) {
          throw new ToolError(`${uri}: kind must be one of ${SYMBOL_KINDS.join(', ')}, not ${JSON.stringify(kind.slice(0, 40))}`, {
            code: 'INVALID_ARGUMENT',
          });
        }
        const index = await indexFor(ctx as CallContext<GodotConfig>);
        const qname = `${required(variables, 'className', uri)}.${required(variables, 'name', uri)}`;
        return symbolMarkdown(symbolDoc(index, resolveSymbol(index, qname, kind as SymbolKind)));
      },
    },
    {
      uriTemplate: 'godot://search{?q,kind}',
      name: 'godot-search',
      title: 'Godot reference search',
      description: `Search results as JSON (same shape as godot_search); kind is one of ${SEARCH_KINDS.join(', ')}.`,
      mimeType: 'application/json',
      read: async (uri, variables, ctx) => {
        const q = required(variables, 'q', uri);
        if (q.length > 500) throw new ToolError(`${uri}: q is longer than 500 characters`, { code: 'INVALID_ARGUMENT' });
        const kind = decodeVariable(variables.kind) || undefined;
        if (kind !== undefined && !(SEARCH_KINDS as readonly string[]).includes(kind)) {
          throw new ToolError(`${uri}: kind must be one of ${SEARCH_KINDS.join(', ')}`, { code: 'INVALID_ARGUMENT' });
        }
        return search(await indexFor(ctx as CallContext<GodotConfig>), q, { kind: kind as SearchKind | undefined, limit: 10 });
      },
    },
  ];
}

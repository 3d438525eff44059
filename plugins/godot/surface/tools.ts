// The five tools. Names are plugin-local; the host publishes them as godot_search, godot_get_class …
import * as z from 'zod';
import { defineTool, structured, type CallContext, type ToolDef } from '../../../src/backend/index.js';
import type { GodotConfig } from '../config.js';
import type { DocIndex } from '../index/doc-index.js';
import { callResults, codeResults, report } from '../lookup/check-api.js';
import { resolveClass, resolveSymbol } from '../lookup/resolve.js';
import { search, SEARCH_KINDS } from '../lookup/search.js';
import { classDoc } from '../view/class-doc.js';
import { symbolDoc } from '../view/symbol-doc.js';
import { CLASS_VIEW, SEARCH_VIEW, viewMeta } from '../views.js';

export type IndexFor = (ctx: CallContext<GodotConfig>) => Promise<DocIndex>;

/** Longest GDScript godot_check_api takes (a long script file is ~50 KB). */
export const MAX_CODE = 200_000;

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const tool = defineTool<GodotConfig>();

export function godotTools(indexFor: IndexFor): ToolDef<GodotConfig>[] {
  return [
    tool({
      name: 'search',
      title: 'Search the Godot API reference',
      description:
        'Full-text search over Godot classes, methods, properties, signals, constants, theme items and annotations. ' +
        'Returns [{uri, name, kind, score, snippet}] best first; name is Class or Class.member. Search first, then fetch details with godot_get_class / godot_get_symbol.',
      input: z.object({
        query: z
          .string()
          .min(1)
          .max(500, 'query is longer than 500 characters: ask with fewer words')
          .describe('what to look for: words ("move a character with collisions") or a name (Node2D, _ready, Node2D.look_at)'),
        kind: z.enum(SEARCH_KINDS).optional().describe('only this kind of symbol'),
        limit: z.number().int().min(1).max(100).default(10).describe('how many results (1–100)'),
      }),
      _meta: viewMeta(SEARCH_VIEW),
      annotations: readOnly,
      handler: async ({ query, kind, limit }, ctx) => search(await indexFor(ctx), query, { kind, limit }),
    }),
    tool({
      name: 'get_class',
      title: 'Get a Godot class',
      description:
        'The full reference of one class: inherits and inheritanceChain, brief and description (Markdown), methods and signals (with arguments), ' +
        'properties, constants (with their enums), each with a signature; themeItems (names by data type) and annotations (names), with details ' +
        'in themeItemDetails / annotationDetails. Unknown names give NOT_FOUND with suggestions.',
      input: z.object({ name: z.string().min(1).max(200).describe('class name, e.g. CharacterBody2D, @GlobalScope') }),
      _meta: viewMeta(CLASS_VIEW),
      annotations: readOnly,
      handler: async ({ name }, ctx) => {
        const index = await indexFor(ctx);
        const doc = classDoc(index, resolveClass(index, name));
        return structured(doc as unknown as Record<string, unknown>, JSON.stringify(doc));
      },
    }),
    tool({
      name: 'get_symbol',
      title: 'Get a Godot method, property, signal or constant',
      description:
        'One member by qualified name (Node._ready, Vector2.x, Button.pressed, Node.ProcessMode, lerp for globals). Members inherited from an ancestor ' +
        'resolve too (CharacterBody2D.add_child → Node.add_child, with a note). Returns {kind, className, name, qname, uri, signature, description, …}.',
      input: z.object({
        qname: z.string().min(1).max(300).describe('Class.member, Class.Enum, Class.Enum.VALUE, or a global function/constant name'),
      }),
      annotations: readOnly,
      handler: async ({ qname }, ctx) => {
        const index = await indexFor(ctx);
        return symbolDoc(index, resolveSymbol(index, qname));
      },
    }),
    tool({
      name: 'list_classes',
      title: 'List Godot classes',
      description: 'Class names in alphabetical order, optionally only those starting with a prefix (case-insensitive).',
      input: z.object({
        prefix: z.string().max(200).optional().describe('only classes whose name starts with this (e.g. Animation)'),
        limit: z.number().int().min(1).max(5000).optional().describe('at most this many names'),
      }),
      annotations: readOnly,
      handler: async ({ prefix, limit }, ctx) => {
        const p = (prefix ?? '').toLowerCase();
        const names = (await indexFor(ctx))
          .classNames()
          .filter((n) => n.toLowerCase().startsWith(p))
          .sort((a, b) => a.localeCompare(b, 'en'));
        return limit === undefined ? names : names.slice(0, limit);
      },
    }),
    tool({
      name: 'check_api',
      title: 'Check GDScript API usage',
      description:
        'Checks that engine API exists: a list of references (calls: ["Input.is_action_pressed(\\"jump\\")", "KinematicBody2D.move_and_slide(v)"]) ' +
        'and/or a GDScript snippet (code: extends, typed variables, Class.new(), obj.method() on typed variables, annotations, calls on the base class). ' +
        'For each: exists, the real signature, argument-count problems, deprecation, and the closest real match when it does not exist ' +
        '(Godot 3 → 4 renames such as KinematicBody2D → CharacterBody2D).',
      input: z
        .object({
          calls: z
            .array(z.string().min(1).max(500))
            .max(200)
            .optional()
            .describe('references such as Class.method(args), Class.property, Class'),
          code: z
            .string()
            .max(MAX_CODE, `code is longer than ${MAX_CODE} characters: check the script in parts`)
            .optional()
            .describe(`a GDScript snippet to scan for engine API (up to ${MAX_CODE} characters)`),
        })
        .refine((a) => a.calls !== undefined || a.code !== undefined, {
          message: 'give calls (a list of Class.member references) or code (GDScript)',
          path: ['calls'],
        }),
      annotations: readOnly,
      handler: async ({ calls, code }, ctx) => {
        const index = await indexFor(ctx);
        const fromCalls = calls ? callResults(index, calls) : [];
        const fromCode = code !== undefined ? await codeResults(index, code, ctx.signal) : [];
        return report([...fromCalls, ...fromCode]);
      },
    }),
  ];
}

// The five tools. Names are plugin-local; the host publishes them as godot_search, godot_get_class …
import * as z from 'zod';
import { defineTool, structured, type CallContext, type ToolDef } from '../../../src/backend/index.js';
import type { GodotConfig } from '../config.js';
import type { DocIndex } from '../search-index/doc-index.js';
import { callResults, codeResults, report } from '../lookup/check-api.js';
import { classOrSuccessor, symbolOrSuccessor } from '../lookup/successor.js';
import { MAX_GUESSES } from '../lookup/guesses.js';
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
        'Returns [{uri, name, kind, score, snippet, deprecated?, replacedBy?, experimental?, guess?}] best first; name is Class or Class.member. ' +
        'Pass guesses: the API names you think are involved, even unsure or from Godot 3 (["KinematicBody2D.move_and_slide", "Timer.set_interval"]): ' +
        'each is resolved (exact, renamed since Godot 3, near miss, the member on another class) and its Godot 4 symbol ranks higher as far as the ' +
        "question's words agree, so describe the task in words too; a wrong guess costs little. " +
        'Search first, then fetch details with godot_get_class / godot_get_symbol.',
      input: z.object({
        query: z
          .string()
          .min(1)
          .max(500, 'query is longer than 500 characters: ask with fewer words')
          .describe('what to look for: words ("move a character with collisions") or a name (Node2D, _ready, Node2D.look_at)'),
        kind: z.enum(SEARCH_KINDS).optional().describe('only this kind of symbol'),
        limit: z.number().int().min(1).max(100).default(10).describe('how many results (1–100)'),
        guesses: z
          .array(z.string().min(1).max(200, 'a guess is longer than 200 characters: give one API name per guess'))
          .max(MAX_GUESSES, `at most ${MAX_GUESSES} guesses`)
          .optional()
          .describe('API names you believe are involved (Class.member, Class, a global; Godot 3 names and near misses are resolved)'),
      }),
      _meta: viewMeta(SEARCH_VIEW),
      annotations: readOnly,
      handler: async ({ query, kind, limit, guesses }, ctx) => search(await indexFor(ctx), query, { kind, limit, guesses }),
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
        const { clsId, godot3 } = classOrSuccessor(index, name);
        const doc = classDoc(index, clsId);
        const out = godot3 ? { ...doc, godot3, note: godot3.note } : doc;
        return structured(out as unknown as Record<string, unknown>, JSON.stringify(out));
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
        const { symbol, godot3 } = symbolOrSuccessor(index, qname);
        return symbolDoc(index, symbol, godot3);
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

// how_to_use_godot_docs: teaches a model to search first, then fetch details, then check its code.
import * as z from 'zod';
import { definePrompt, type PromptDef } from '../../../src/backend/index.js';
import type { GodotConfig } from '../config.js';

const GUIDE = `You have the Godot Engine class reference through these tools. Use them instead of recalling the API from memory: Godot's API changed a lot between 3.x and 4.x.

1. Search first: godot_search { query } with the user's words ("move a character with collisions") or a name (CharacterBody2D, _ready). Results are [{uri, name, kind, score, snippet}], best first; add kind ("class", "method", "property", "signal", "constant") to narrow them.
2. Then fetch details of the few results that matter:
   - godot_get_symbol { qname: "Class.member" } for one method, property, signal, constant or enum. Inherited members resolve to the class that declares them (CharacterBody2D.add_child → Node.add_child).
   - godot_get_class { name } for a whole class (large classes are long: prefer get_symbol when you know the member).
   - The same pages are resources: godot://class/<Class>, godot://symbol/<Class>/<kind>/<name>, and links inside descriptions point there.
3. Before answering with GDScript, run godot_check_api { code } (or { calls: ["Class.method(args)"] }) and fix every problem it reports: missing classes or members, wrong argument counts, deprecated API, Godot 3 names (KinematicBody2D → CharacterBody2D).
4. godot_list_classes { prefix } lists class names when you need to browse.
5. A NOT_FOUND error carries suggestions (did-you-mean); try them rather than guessing.

Quote signatures exactly as the tools return them.`;

export function godotPrompts(): PromptDef<GodotConfig>[] {
  return [
    definePrompt<GodotConfig>()({
      name: 'how_to_use_godot_docs',
      title: 'How to use the Godot docs tools',
      description: 'Explains how to look things up in the Godot reference: search first, then fetch details, then check the code.',
      args: z.object({ task: z.string().max(2000).optional().describe('what you are trying to do in Godot (optional)') }),
      get: ({ task }) => (task ? `${GUIDE}\n\nThe task: ${task}\nStart with godot_search.` : GUIDE),
    }),
  ];
}

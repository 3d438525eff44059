// The three tools the ExileApi HUD serves, with the HUD's own parameter names and defaults. The
// remote provider forwards them to the HUD; the snapshot provider answers them from a recording.
import * as z from 'zod';

export const exploreInput = z.object({
  target: z.string().default('').describe('a path (Player.Components), type:<TypeName>, or search:<glob>; "" lists the roots'),
  depth: z.number().int().min(0).max(10).default(1).describe('levels of members to expand'),
  includePrivate: z.boolean().default(true).describe('include private fields'),
  limit: z.number().int().min(1).max(10_000).default(50).describe('items shown per collection'),
});

export const evalInput = z.object({
  expr: z.string().min(1).describe('expression: dot paths, [0] / ["key"] indexers, method calls, GetComponent<Life>(), ?.'),
  depth: z.number().int().min(0).max(10).default(2).describe('levels of the result to expand'),
});

export const queryInput = z.object({
  from: z.string().min(1).describe('collection path, e.g. Entities'),
  where: z.string().optional().describe('Dynamic LINQ predicate, e.g. Distance < 50 && IsHostile'),
  select: z.string().optional().describe('projection, e.g. new { Id, RenderName }'),
  orderBy: z.string().optional().describe('keys, e.g. Distance or Timer desc, Id'),
  take: z.number().int().min(0).max(100_000).default(100),
  skip: z.number().int().min(0).default(0),
});

export type ExploreArgs = z.output<typeof exploreInput>;
export type EvalArgs = z.output<typeof evalInput>;
export type QueryArgs = z.output<typeof queryInput>;

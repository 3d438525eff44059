// How the HUD writes what its serializer must choose a form for, as the recorder learned it from
// the live HUD's own answers (record/learn.ts) and the offline serializer repeats it. The seed
// leaves these open: a collection past the depth limit (`{ "count": 8 }`, or its type name
// `"<Dictionary<String, Component>>"`), a collection within it (`{ count, items }` or its items
// alone), an enum (its name or its number), a struct (whole, or its ToString() text).
import * as z from 'zod';

export const writesSchema = z.object({
  /** Past the depth limit: `count` → `{ "count": n }`; `typeName` → `"<Dictionary<String, Component>>"`; or a text per type. */
  pastDepth: z.union([z.enum(['count', 'typeName']), z.object({ text: z.record(z.string(), z.string()) })]).default('count'),
  /** Within the depth limit: `counted` → `{ count, items }`; `bare` → the items alone (an array, or an object keyed as the dictionary). */
  collections: z.enum(['counted', 'bare']).default('counted'),
  enums: z.enum(['name', 'value']).default('name'),
  structs: z.enum(['whole', 'text']).default('whole'),
});

export type HudWrites = z.output<typeof writesSchema>;

/** What a snapshot recorded before the recorder learned (or when it could not) answers with. */
export const SEED_WRITES: HudWrites = { pastDepth: 'count', collections: 'counted', enums: 'name', structs: 'whole' };

/** `System.Collections.Generic.Dictionary<System.String, ExileCore.PoEMemory.Component>` → `Dictionary<String, Component>`. */
export function csharpShortName(full: string): string {
  return full.replace(/[A-Za-z_][\w`]*(?:\.[A-Za-z_][\w`]*)+/g, (name) => name.slice(name.lastIndexOf('.') + 1));
}

/** A collection past the depth limit, written the learned way. */
export function pastDepthCollection(writes: HudWrites, type: string, count: number): unknown {
  if (writes.pastDepth === 'typeName') return `<${csharpShortName(type)}>`;
  if (typeof writes.pastDepth === 'object') return writes.pastDepth.text[type] ?? { count };
  return { count };
}

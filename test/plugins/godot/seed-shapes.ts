// The return shapes of the Godot docs seed ("Type shapes" of the godot-doc-mcp README the plugin was
// specified from: GodotMethod, GodotProperty, GodotSignal, GodotConstant, GodotClassDoc,
// GodotSymbolDoc), written as zod schemas, field for field. Objects are not strict: the plugin's
// extra fields (signature, params, uri, inheritanceChain …) may stand beside the seed's.
import * as z from 'zod';

const argument = z.object({ name: z.string(), type: z.string().optional(), default: z.string().optional() });

export const GodotMethod = z.object({
  name: z.string(),
  returnType: z.string().optional(),
  arguments: z.array(argument),
  description: z.string().optional(),
  qualifiers: z.array(z.string()).optional(),
});

export const GodotProperty = z.object({
  name: z.string(),
  type: z.string().optional(),
  default: z.string().optional(),
  description: z.string().optional(),
});

export const GodotSignal = z.object({
  name: z.string(),
  arguments: z.array(z.object({ name: z.string(), type: z.string().optional() })),
  description: z.string().optional(),
});

export const GodotConstant = z.object({ name: z.string(), value: z.string().optional(), description: z.string().optional() });

export const GodotClassDoc = z.object({
  name: z.string(),
  inherits: z.string().optional(),
  category: z.string().optional(),
  brief: z.string().optional(),
  description: z.string().optional(),
  methods: z.array(GodotMethod),
  properties: z.array(GodotProperty),
  signals: z.array(GodotSignal),
  constants: z.array(GodotConstant),
  themeItems: z.record(z.string(), z.array(z.string())).optional(),
  annotations: z.array(z.string()).optional(),
  since: z.string().optional(),
});

const owned = z.object({ className: z.string() });

export const GodotSymbolDoc = z.union([
  owned.extend({ kind: z.literal('method') }).and(GodotMethod),
  owned.extend({ kind: z.literal('property') }).and(GodotProperty),
  owned.extend({ kind: z.literal('signal') }).and(GodotSignal),
  owned.extend({ kind: z.literal('constant') }).and(GodotConstant),
]);

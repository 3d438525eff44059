// The snapshot document (format `mcphost-exile-snapshot`, version 1), as written by the recorder
// and read by the loader. docs/exile-snapshot.md is the reference; keep the two in step.
import * as z from 'zod';
import { writesSchema } from './writes.js';

export const SNAPSHOT_FORMAT = 'mcphost-exile-snapshot';
export const SNAPSHOT_VERSION = 1;

/** The roots the HUD serves, in its order. A snapshot holds those it recorded. */
export const HUD_ROOTS = ['GameController', 'Player', 'Entities', 'IngameState', 'IngameUi', 'Camera', 'Files', 'Memory'] as const;

/**
 * A value in the object graph:
 * - JSON null, boolean, number, string;
 * - `{ "$ref": id }`: the object elsewhere in the document that carries `"$id": id`;
 * - `{ "$type", "$enum": "Rare", "$value": 2 }`: an enum value (flags: `"Hidden, Targetable"`);
 * - `{ "$type", "$id"?, "$count"?, "$values": [...] }`: a list (first items only when $count is larger);
 * - `{ "$type", "$id"?, "$count"?, "$entries": [[key, value], ...] }`: a dictionary;
 * - `{ "$type", "$id"?, "$value"?, "$truncated"?, ...members }`: an object; `$value` is its
 *   display text (the HUD's `value`), `$truncated: true` marks one recorded without its members.
 */
export type SnapshotValue =
  | null
  | boolean
  | number
  | string
  | { $ref: number | string }
  | { $type: string; $enum: string; $value: number }
  | { $type: string; $id?: number | string; $count?: number; $values: SnapshotValue[] }
  | { $type: string; $id?: number | string; $count?: number; $entries: Array<[string | number | boolean, SnapshotValue]> }
  | { $type: string; $id?: number | string; $value?: string; $truncated?: boolean; [member: string]: unknown };

const attribute = z.object({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() });

const member = z.object({
  name: z.string().min(1),
  kind: z.enum(['field', 'property']),
  type: z.string().min(1).describe('display name of the declared type: Int32, Vector3, List<Buff>'),
  access: z.enum(['public', 'private', 'protected', 'internal', 'protected internal', 'private protected']).default('public'),
  static: z.boolean().optional(),
  attributes: z.array(attribute).optional(),
  offset: z.string().optional().describe('FieldOffset in hex, 0x..'),
});

const method = z.object({
  name: z.string().min(1).describe('GetComponent<T>'),
  signature: z.string().optional().describe('T GetComponent<T>()'),
  access: member.shape.access,
  static: z.boolean().optional(),
});

export const typeInfoSchema = z.object({
  type: z.string().min(1).describe('full name: ExileCore.PoEMemory.Components.Life'),
  kind: z.enum(['class', 'struct', 'enum', 'interface']),
  baseType: z.string().optional(),
  attributes: z.array(attribute).optional(),
  size: z.number().int().nonnegative().optional(),
  members: z.array(member).optional(),
  methods: z.array(method).optional(),
  values: z
    .array(z.object({ name: z.string().min(1), value: z.number() }))
    .optional()
    .describe('enum values'),
});

export const documentSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.number().int().positive(),
  recordedAt: z.string().optional(),
  source: z
    .object({
      url: z.string().optional(),
      roots: z.array(z.string()).optional(),
      depth: z.number().optional(),
      recorder: z.string().optional(),
    })
    .loose()
    .optional(),
  /** How the recorded HUD writes its answers (writes.ts); absent in older snapshots: the seed's forms. */
  hud: z.object({ writes: writesSchema }).optional(),
  roots: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), typeInfoSchema).default({}),
});

export type MemberInfo = z.output<typeof member>;
export type MethodInfo = z.output<typeof method>;
export type TypeInfo = z.output<typeof typeInfoSchema>;
export type SnapshotDocument = Omit<z.output<typeof documentSchema>, 'roots'> & { roots: Record<string, SnapshotValue> };

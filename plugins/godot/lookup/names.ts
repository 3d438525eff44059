// Validation of the names and qualified names clients send (tool arguments and URI parts). Nothing
// is ever read from a path built out of them, but a bad one is refused before any lookup.
import { ToolError } from '../../../src/backend/index.js';

const MAX_NAME = 200;
const CLASS_NAME = /^@?[A-Za-z_][A-Za-z0-9_]*$/;
// Member names are identifiers, `@annotation`s, or project-setting paths (`display/window/size/mode`).
const MEMBER_NAME = /^@?[A-Za-z0-9_][A-Za-z0-9_./-]*$/;

function refuse(field: string, value: string, why: string): never {
  throw new ToolError(`Invalid ${field} ${JSON.stringify(value.slice(0, 80))}: ${why}`, { code: 'INVALID_ARGUMENT', data: { field } });
}

function common(field: string, value: string): void {
  if (value.length === 0) refuse(field, value, 'it is empty');
  if (value.length > MAX_NAME) refuse(field, value, `it is longer than ${MAX_NAME} characters`);
  if (value.includes('\0')) refuse(field, value, 'it contains a NUL character');
  if (value.includes('..') || value.startsWith('/') || value.includes('\\') || /^[A-Za-z]:/.test(value)) {
    refuse(field, value, 'it looks like a path; give a Godot name such as Node2D or Node2D.look_at');
  }
}

export function checkClassName(value: string, field = 'class name'): string {
  const name = value.trim();
  common(field, name);
  if (!CLASS_NAME.test(name)) refuse(field, name, 'a class name is letters, digits and _ (e.g. Node2D, @GlobalScope)');
  return name;
}

function checkMemberName(value: string, field = 'member name'): string {
  const name = value.trim();
  common(field, name);
  if (!MEMBER_NAME.test(name)) refuse(field, name, 'a member name is letters, digits and _ (e.g. look_at, _ready)');
  return name;
}

/** `Class.member` (or a bare global like `lerp`), with any `(args)` after it dropped. */
export function splitQualified(value: string, field = 'qname'): { cls?: string; member: string } {
  const text = value
    .trim()
    .replace(/\(.*\)\s*$/s, '')
    .trim();
  common(field, text);
  const dot = text.indexOf('.');
  if (dot < 0) return { member: checkMemberName(text, field) };
  return { cls: checkClassName(text.slice(0, dot), field), member: checkMemberName(text.slice(dot + 1), field) };
}

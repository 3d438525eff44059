// One-line signatures in GDScript notation: `look_at(point: Vector2) -> void`,
// `position: Vector2 = Vector2(0, 0)`, `toggled(toggled_on: bool)`, `NOTIFICATION_READY = 13`.
import type { ConstantDoc, MethodDoc, ParamDoc, PropertyDoc, SignalDoc, ThemeItemDoc } from './model.js';

function paramList(params: ParamDoc[], vararg = false): string {
  const parts = params.map((p) => `${p.name}: ${p.enum ?? p.type}${p.default !== undefined ? ` = ${p.default}` : ''}`);
  if (vararg) parts.push('...');
  return parts.join(', ');
}

export function methodSignature(m: MethodDoc): string {
  const q = m.qualifiers ?? '';
  const prefix = /\bstatic\b/.test(q) ? 'static ' : '';
  return `${prefix}${m.name}(${paramList(m.params, /\bvararg\b/.test(q))}) -> ${m.returnEnum ?? m.returnType}`;
}

/** `@export_range(min: float, max: float, ...)`, or just `@onready`. */
export function annotationSignature(a: MethodDoc): string {
  const vararg = /\bvararg\b/.test(a.qualifiers ?? '');
  return a.params.length || vararg ? `${a.name}(${paramList(a.params, vararg)})` : a.name;
}

export function propertySignature(p: PropertyDoc): string {
  return `${p.name}: ${p.enum ?? p.type}${p.default !== undefined ? ` = ${p.default}` : ''}`;
}

export function signalSignature(s: SignalDoc): string {
  return `${s.name}(${paramList(s.params)})`;
}

export function constantSignature(c: ConstantDoc): string {
  return `${c.name} = ${c.value}`;
}

export function themeItemSignature(t: ThemeItemDoc): string {
  return `${t.name}: ${t.type}${t.default !== undefined ? ` = ${t.default}` : ''}`;
}

/** The smallest and largest argument count a method accepts (max is Infinity for varargs). */
export function arity(m: MethodDoc): { min: number; max: number } {
  const min = m.params.filter((p) => p.default === undefined).length;
  return { min, max: /\bvararg\b/.test(m.qualifiers ?? '') ? Infinity : m.params.length };
}

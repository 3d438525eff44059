// The pure methods that work on recorded values: ToString/GetHashCode/Equals on anything, the
// usual string methods, LINQ-style methods on collections (with predicates evaluated against each
// element as `it`), and GetComponent<T>/HasComponent<T> on entities. Any other method needs the
// live process: "not available in a snapshot".
import { ExprError } from '../lang/errors.js';
import {
  DictValue,
  ListValue,
  elementsOf,
  isCollection,
  isObject,
  shortType,
  typeLabel,
  type Collection,
  type Value,
} from '../../model.js';
import type { Env, Fn, Scope } from './env.js';
import { getComponent, notInSnapshot } from './members.js';
import { compare, equals, hashCode, orderCompare, toText, truthy } from './ops.js';

export interface CallSite {
  name: string;
  typeArgs: string[];
  args: Fn[];
  pos: number;
}

export function callMethod(target: Value, call: CallSite, scope: Scope, env: Env): Value {
  const { name, args, pos } = call;
  if (target === null) throw new ExprError(`null reference: cannot call ${name}() on null`, pos, 'EXPR_EVAL', 'use ?. to allow null');
  const arg = (i: number) => args[i](scope);
  if (call.typeArgs.length === 0) {
    switch (name) {
      case 'ToString':
        if (args.length === 0) return toText(target, env.snapshot);
        break;
      case 'GetHashCode':
        if (args.length === 0) return hashCode(target, env.snapshot);
        break;
      case 'Equals':
        if (args.length === 1) return equals(target, arg(0), env.snapshot, pos, false);
        break;
    }
  }
  if (typeof target === 'string') return stringMethod(target, call, arg, env);
  if (isCollection(target)) return collectionMethod(target, call, scope, env);
  if (isObject(target) && (name === 'GetComponent' || name === 'HasComponent') && call.typeArgs.length === 1 && args.length === 0) {
    const c = getComponent(target, call.typeArgs[0], env.snapshot, pos, `${name}<${call.typeArgs[0]}>()`);
    return name === 'GetComponent' ? c : c !== null;
  }
  const typeName = isObject(target) ? target.$type : undefined;
  const label = `${shortType(typeName ?? typeLabel(target))}.${name}${call.typeArgs.length ? `<${call.typeArgs.join(', ')}>` : ''}()`;
  if (env.snapshot.method(typeName, name)) throw notInSnapshot(label, pos, 'calling methods needs the live HUD');
  if (isObject(target) && (env.snapshot.member(typeName, name) || Object.hasOwn(target, name))) {
    throw new ExprError(`${typeLabel(target)}.${name} is a property, not a method`, pos, 'EXPR_EVAL', `drop the (): ${name}`);
  }
  throw new ExprError(`${typeLabel(target)} has no method ${name} taking ${args.length} argument${args.length === 1 ? '' : 's'}`, pos);
}

function need(count: number | [number, number], call: CallSite): void {
  const [min, max] = typeof count === 'number' ? [count, count] : count;
  if (call.args.length < min || call.args.length > max) {
    throw new ExprError(
      `${call.name} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, got ${call.args.length}`,
      call.pos,
    );
  }
}

function stringArg(v: Value, call: CallSite): string {
  if (typeof v === 'string') return v;
  throw new ExprError(`${call.name} needs a String argument, got ${typeLabel(v)}`, call.pos);
}

function intArg(v: Value, call: CallSite): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new ExprError(`${call.name} needs an integer argument, got ${typeLabel(v)}`, call.pos);
}

function stringMethod(s: string, call: CallSite, arg: (i: number) => Value, env: Env): Value {
  switch (call.name) {
    case 'Contains':
      need(1, call);
      return s.includes(stringArg(arg(0), call));
    case 'StartsWith':
      need(1, call);
      return s.startsWith(stringArg(arg(0), call));
    case 'EndsWith':
      need(1, call);
      return s.endsWith(stringArg(arg(0), call));
    case 'IndexOf':
      need(1, call);
      return s.indexOf(stringArg(arg(0), call));
    case 'ToUpper':
    case 'ToUpperInvariant':
      need(0, call);
      return built(s.toUpperCase(), call, env);
    case 'ToLower':
    case 'ToLowerInvariant':
      need(0, call);
      return built(s.toLowerCase(), call, env);
    case 'Trim':
      need(0, call);
      return s.trim();
    case 'Replace': {
      need(2, call);
      const from = stringArg(arg(0), call);
      const to = stringArg(arg(1), call);
      if (from === '') throw new ExprError('Replace: the string to replace is empty', call.pos);
      const parts = s.split(from);
      // Measured before joining: a 10-character string replaced 7 times over is 100 M characters.
      env.budget.text(s.length + (parts.length - 1) * (to.length - from.length), 'Replace');
      return parts.join(to);
    }
    case 'Substring': {
      need([1, 2], call);
      const start = intArg(arg(0), call);
      const length = call.args.length === 2 ? intArg(arg(1), call) : s.length - start;
      if (start < 0 || length < 0 || start + length > s.length)
        throw new ExprError(`Substring(${start}, ${length}) is out of range (Length = ${s.length})`, call.pos);
      return s.slice(start, start + length);
    }
  }
  throw new ExprError(
    `String has no method ${call.name} taking ${call.args.length} argument${call.args.length === 1 ? '' : 's'}`,
    call.pos,
  );
}

/** A string a method made, counted against the call's limits. */
function built(text: string, call: CallSite, env: Env): string {
  env.budget.text(text.length, call.name);
  return text;
}

/** A collection a method made, counted against the call's limits. */
function list(type: string, items: Value[], call: CallSite, env: Env): ListValue {
  env.budget.items(items.length, call.name);
  return new ListValue(type, items);
}

function collectionMethod(c: Collection, call: CallSite, scope: Scope, env: Env): Value {
  const { name, pos } = call;
  if (c instanceof DictValue && name === 'ContainsKey') {
    need(1, call);
    const k = call.args[0](scope);
    return c.map.has(k as string) || (typeof k === 'number' && c.map.has(String(k)));
  }
  if ((name === 'Count' || name === 'Any') && call.args.length === 0) return name === 'Count' ? c.count : c.count > 0;
  const partial = c.count > (c instanceof ListValue ? c.items.length : c.map.size);
  if (partial) throw notInSnapshot(`${shortType(c.type)}.${name}()`, pos, `only some of the ${c.count} items were recorded`);
  const items = elementsOf(c);
  const each = (fn: Fn) => (el: Value) => {
    env.budget.tick();
    return fn({ it: el, vars: scope.vars });
  };
  const pred = (i = 0) => {
    const f = each(call.args[i]);
    return (el: Value) => truthy(f(el), `${name}'s predicate`, pos);
  };
  const value = (v: Value) => v;
  const selector = () => (call.args.length > 0 ? each(call.args[0]) : value);
  switch (name) {
    case 'Count':
      need(1, call);
      return items.filter(pred()).length;
    case 'Any':
      need(1, call);
      return items.some(pred());
    case 'All':
      need(1, call);
      return items.every(pred());
    case 'First':
    case 'FirstOrDefault':
    case 'Last':
    case 'LastOrDefault': {
      need([0, 1], call);
      const pool = call.args.length === 1 ? items.filter(pred()) : items;
      if (pool.length === 0) {
        if (name.endsWith('OrDefault')) return null;
        throw new ExprError(
          `${name}: the sequence contains no ${call.args.length ? 'matching ' : ''}elements`,
          pos,
          'EXPR_EVAL',
          `use ${name}OrDefault to get null`,
        );
      }
      return name.startsWith('First') ? pool[0] : pool[pool.length - 1];
    }
    case 'ElementAt': {
      need(1, call);
      const i = intArg(call.args[0](scope), call);
      if (i < 0 || i >= items.length) throw new ExprError(`ElementAt(${i}) is out of range (Count = ${items.length})`, pos);
      return items[i];
    }
    case 'Contains':
      need(1, call);
      return items.some((el) => equals(el, call.args[0](scope), env.snapshot, pos, false));
    case 'Where':
      need(1, call);
      return list('IEnumerable', items.filter(pred()), call, env);
    case 'Select':
      need(1, call);
      return list('IEnumerable', items.map(selector()), call, env);
    case 'Take':
    case 'Skip': {
      need(1, call);
      const n = Math.max(0, intArg(call.args[0](scope), call));
      return list('IEnumerable', name === 'Take' ? items.slice(0, n) : items.slice(n), call, env);
    }
    case 'ToList':
    case 'ToArray':
      need(0, call);
      return list(c.type, items, call, env);
    case 'OrderBy':
    case 'OrderByDescending': {
      need(1, call);
      const key = selector();
      const keyed = items.map((el) => ({ el, k: key(el) }));
      const sign = name === 'OrderBy' ? 1 : -1;
      keyed.sort((a, b) => sign * orderCompare(a.k, b.k, pos));
      return list(
        'IEnumerable',
        keyed.map((x) => x.el),
        call,
        env,
      );
    }
    case 'Sum':
    case 'Min':
    case 'Max':
    case 'Average':
      need([0, 1], call);
      return aggregate(name, items.map(selector()), env, pos);
  }
  throw new ExprError(`${typeLabel(c)} has no method ${name} taking ${call.args.length} argument${call.args.length === 1 ? '' : 's'}`, pos);
}

function aggregate(name: string, values: Value[], env: Env, pos: number): Value {
  const present = values.filter((v) => v !== null);
  const bad = present.find((v) => typeof v !== 'number' && !(name === 'Min' || name === 'Max'));
  if (bad !== undefined) throw new ExprError(`${name} needs numbers, got ${typeLabel(bad)}`, pos);
  const sum = () => (present as number[]).reduce((acc, v) => acc + v, 0);
  if (name === 'Sum') return sum();
  if (present.length === 0) {
    if (values.length > 0) return null;
    throw new ExprError(`${name}: the sequence contains no elements`, pos);
  }
  if (name === 'Average') return sum() / present.length;
  return present.reduce((best, v) => {
    const sign = compare(v, best, name === 'Min' ? '<' : '>', pos) ?? 0;
    return (name === 'Min' ? sign < 0 : sign > 0) ? v : best;
  });
}

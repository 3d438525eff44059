// Type metadata for a recording: `explore type:<Name>` once per type met (runtime types, declared
// member types, base types, the member types of structs), shared by concurrent jobs, so enums can be
// read back into numbers and structs recognised. A look-up the budget no longer allows is skipped.
import type { TypeInfo } from '../format.js';
import { lookupWorthy, normalizeTypeInfo } from './values.js';

export class TypeBook {
  private readonly known = new Map<string, TypeInfo | null>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Every type recorded, by full name. */
  readonly recorded = new Map<string, TypeInfo>();

  /** `lookup` explores `type:<name>`, or answers undefined when the budget is spent. */
  constructor(private readonly lookup: (name: string) => Promise<unknown> | undefined) {}

  typeOf(name: string): TypeInfo | undefined {
    return this.known.get(name) ?? undefined;
  }

  /** Full names of the recorded base types of `type`, nearest first. */
  bases(type: string): string[] {
    const out: string[] = [];
    for (let info = this.typeOf(type); info?.baseType && !out.includes(info.baseType); info = this.typeOf(info.baseType))
      out.push(info.baseType);
    return out;
  }

  /** Looks up the names not yet known (and then their bases and struct members). */
  async ensure(names: Iterable<string | undefined>): Promise<void> {
    const todo = [...new Set([...names].filter(lookupWorthy))];
    await Promise.all(todo.map((name) => this.one(name)));
  }

  private one(name: string): Promise<void> {
    if (this.known.has(name)) return Promise.resolve();
    let p = this.pending.get(name);
    if (!p) {
      p = this.fetch(name);
      this.pending.set(name, p);
    }
    return p;
  }

  private async fetch(name: string): Promise<void> {
    const answer = this.lookup(name);
    const info = answer ? await answer.then(normalizeTypeInfo, () => undefined) : undefined;
    this.known.set(name, info ?? null);
    this.pending.delete(name);
    if (!info) return;
    this.known.set(info.type, info);
    this.recorded.set(info.type, info);
    const next = [info.baseType, ...(info.kind === 'struct' ? (info.members ?? []).map((m) => m.type) : [])];
    await this.ensure(next);
  }
}

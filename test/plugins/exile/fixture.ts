// Test helpers: the generated fixture snapshot as text (what a file would hold), as a loaded
// snapshot / provider, and as plain resolved JSON for computing expected answers independently of
// the loader and evaluator.
import { generateSnapshot } from '../../fixtures/exile/generate.js';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider, type SnapshotOptions } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { exploreInput, evalInput, queryInput } from '../../../plugins/exile/schemas.ts';
import type { ExileProvider } from '../../../plugins/exile/provider.ts';

let text: string | undefined;

export function fixtureText(): string {
  return (text ??= JSON.stringify(generateSnapshot()));
}

export function fixtureProvider(options: SnapshotOptions = {}): ExileProvider {
  return createSnapshotProvider(parseSnapshot(fixtureText()), options);
}

export const ctx = () => ({ signal: new AbortController().signal });

/** Calls a provider tool with the HUD's defaults applied by the tool's own schema. */
export function tools(provider: ExileProvider) {
  return {
    explore: (args: Record<string, unknown>) => provider.explore(exploreInput.parse(args), ctx()) as Promise<any>,
    eval: (expr: string, depth?: number) => provider.eval(evalInput.parse({ expr, depth }), ctx()) as Promise<any>,
    query: (args: Record<string, unknown>) => provider.query(queryInput.parse(args), ctx()) as Promise<any>,
  };
}

export type Raw = Record<string, any>;

/** The fixture as plain JSON with every { $ref } replaced by the object carrying that $id. */
export function rawFixture(): Raw {
  const doc = JSON.parse(fixtureText());
  const byId = new Map<unknown, unknown>();
  const collect = (v: any) => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(collect);
    if (v.$id !== undefined) byId.set(v.$id, v);
    Object.values(v).forEach(collect);
  };
  const resolve = (v: any): any => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      v.forEach((x, i) => (v[i] = resolve(x)));
      return v;
    }
    if ('$ref' in v) return byId.get(v.$ref);
    for (const k of Object.keys(v)) v[k] = resolve(v[k]);
    return v;
  };
  collect(doc.roots);
  resolve(doc.roots);
  return doc;
}

export const entitiesOf = (raw: Raw): Raw[] => raw.roots.Entities.$values;
export const componentOf = (entity: Raw, name: string): Raw | undefined =>
  entity.Components.$entries.find(([k]: [string]) => k === name)?.[1];

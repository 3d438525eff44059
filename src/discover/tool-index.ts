// Offline ranking of the published tools for `mcphost_find_tools`: BM25F (wink-bm25-text-search)
// over each tool's name, title, description, parameter names and descriptions, and the description
// of the backend that publishes it (so "Path of Building" finds pob's tools even where a tool's own
// text does not say it). An index is built from one listing and never changed: the surface builds a
// new one when the registry's tools change (a server came up, a reload), which takes a few
// milliseconds for hundreds of tools.
import winkBM25 from 'wink-bm25-text-search';
import { terms } from './text.js';

export interface IndexedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  /** What the backend serving it is about (its description). */
  backend?: string;
}

export interface ToolHit {
  name: string;
  description: string;
  score: number;
}

// Where a query word counts most: a tool's own name and title, then its description, then its
// parameters, then what its backend is about. Tuned on the first half of test/fixtures/discover/tasks.json.
const FIELD_WEIGHTS = { name: 3, title: 2, description: 1, params: 0.7, backend: 0.6 };
const BM25_PARAMS = { k1: 1.2, b: 0.6, k: 1 };

/** wink refuses to consolidate fewer documents than this; smaller lists are padded with blank ones. */
const MIN_DOCS = 3;
const PAD = '\u0000pad';

/** "name: description" of every parameter, nested objects one level down included. */
function parameterText(schema: Record<string, unknown> | undefined, depth = 0): string {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object' || depth > 1) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    parts.push(key);
    if (typeof value?.description === 'string') parts.push(value.description);
    if (value && typeof value === 'object') parts.push(parameterText(value, depth + 1));
  }
  return parts.filter(Boolean).join(' ');
}

/** The first sentence (or line) of a description, at most `max` characters: what a hit shows. */
function shortDescription(text: string, max = 160): string {
  const line = text.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}

export class ToolIndex {
  private readonly engine?: ReturnType<typeof winkBM25>;
  private readonly byName: Map<string, IndexedTool>;

  private constructor(tools: IndexedTool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    if (tools.length === 0) return;
    const engine = winkBM25();
    engine.defineConfig({ fldWeights: FIELD_WEIGHTS, bm25Params: BM25_PARAMS });
    engine.definePrepTasks([(text: string) => terms(text)]);
    for (const t of tools) {
      engine.addDoc(
        { name: t.name, title: t.title ?? '', description: t.description, params: parameterText(t.inputSchema), backend: t.backend ?? '' },
        t.name,
      );
    }
    for (let i = tools.length; i < MIN_DOCS; i++)
      engine.addDoc({ name: `zzpad${i}`, title: '', description: '', params: '', backend: '' }, `${PAD}${i}`);
    engine.consolidate(4);
    this.engine = engine;
  }

  static build(tools: IndexedTool[]): ToolIndex {
    return new ToolIndex(tools);
  }

  get size(): number {
    return this.byName.size;
  }

  /** The `limit` best tools for a plain-language query, best first; nothing when no word of it matches. */
  search(query: string, limit: number): ToolHit[] {
    if (!this.engine) return [];
    const hits: ToolHit[] = [];
    for (const [name, score] of this.engine.search(query, limit + MIN_DOCS)) {
      const tool = this.byName.get(name);
      if (!tool) continue;
      hits.push({
        name,
        description: shortDescription(tool.title ? `${tool.title}: ${tool.description}` : tool.description),
        score: round(score),
      });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

// Offline ranking of the published tools for `mcphost_find_tools`, in two parts:
// - the tool's own text, BM25F (bm25f.ts) over its name, title, description and parameters (names
//   and descriptions), for the query's concepts (query.ts: its words with the words tools use for
//   them, and what its literals stand for);
// - its backend: each backend is one document (its name, its description, and the names and titles
//   of its tools), and how well the query matches it raises all of its tools together. A task
//   that names or describes a program ("in Godot", "the hex editor", "my build") goes to that
//   program's tools; before, the backend's description was a field of every one of its tools,
//   where, the same text repeated on each, it weighed next to nothing and favoured no tool.
// An index is built from one listing and never changed: the surface builds a new one when the
// registry's tools change (a server came up, a reload), which takes a few milliseconds for
// hundreds of tools.
import { Bm25f, type Concept, type FieldSpec } from './bm25f.js';
import { ADDED_WEIGHT, planQuery, SHAPE_WEIGHT } from './query.js';
import { terms } from './text.js';

export interface IndexedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  /** The backend serving it: its name, and what it is about (its description). */
  backend?: { name: string; description: string };
}

/** What `mcphost_find_tools` answers per tool: enough to choose without describing every one. */
export interface ToolHit {
  name: string;
  title?: string;
  /** One line: the description's first sentence, at most DESCRIPTION_CHARS characters. */
  description: string;
  score: number;
}

type ToolField = 'name' | 'title' | 'description' | 'params';
type BackendField = 'identity' | 'tools';

/** The ranking's numbers (bench/discover-fit.js tries others). */
export interface RankingOptions {
  fields: Record<ToolField, FieldSpec>;
  backendFields: Record<BackendField, FieldSpec>;
  /** A tool's score × (1 + backendBoost × its backend's share of the best backend score). */
  backendBoost: number;
  /** A tool's score × (share of the query's concepts it matches) ** coverage. */
  coverage: number;
  /** Weights of added words and of what literals stand for (query.ts). */
  added: number;
  shape: number;
}

// Chosen on the tuning halves of test/fixtures/discover/tasks.json and tasks-sourced.json
// (bench/discover-fit.js); the held-out halves are reported by bench/discover.bench.js.
/** @public read by bench/discover-fit.js */
export const RANKING: RankingOptions = {
  fields: {
    name: { weight: 2.5, b: 0.3 },
    title: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    params: { weight: 0.4, b: 0.75 },
  },
  backendFields: { identity: { weight: 2, b: 0.3 }, tools: { weight: 0.5, b: 0.75 } },
  backendBoost: 0.6,
  coverage: 0,
  added: ADDED_WEIGHT,
  shape: SHAPE_WEIGHT,
};
const DESCRIPTION_CHARS = 120;

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

/** A backend's description without the command line or URL it is reached by (`MCP server \`node …/index.js stdio\``). */
function identityText(backend: { name: string; description: string }): string {
  return `${backend.name} ${backend.description.replace(/`[^`]*`/g, ' ').replace(/\b\w+:\/\/\S+/g, ' ')}`;
}

/** The first sentence (or line) of a description, at most `max` characters: what a hit shows. */
function oneLine(text: string, max = DESCRIPTION_CHARS): string {
  const line =
    text
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}

export class ToolIndex {
  private readonly tools: IndexedTool[];
  private readonly engine?: Bm25f<ToolField>;
  private readonly backends?: Bm25f<BackendField>;
  /** Per tool: the index of its backend document. */
  private readonly backendOf: number[];
  private readonly vocabulary = new Set<string>();

  private constructor(
    tools: IndexedTool[],
    private readonly options: RankingOptions,
  ) {
    this.tools = tools;
    const names = [...new Set(tools.map((t) => t.backend?.name ?? ''))];
    this.backendOf = tools.map((t) => names.indexOf(t.backend?.name ?? ''));
    if (tools.length === 0) return;
    const docs = tools.map((t) => ({
      name: terms(t.name),
      title: terms(t.title ?? ''),
      description: terms(t.description),
      params: terms(parameterText(t.inputSchema)),
    }));
    this.engine = new Bm25f(options.fields, docs);
    const backendDocs = names.map((name) => {
      const first = tools.find((t) => (t.backend?.name ?? '') === name)?.backend;
      const own = tools.filter((t) => (t.backend?.name ?? '') === name);
      return {
        identity: first ? terms(identityText(first)) : [],
        tools: terms(own.map((t) => `${t.name} ${t.title ?? ''}`).join(' ')),
      };
    });
    this.backends = names.length > 1 ? new Bm25f(options.backendFields, backendDocs) : undefined;
    for (const d of [...docs, ...backendDocs]) for (const list of Object.values(d)) for (const t of list) this.vocabulary.add(t);
  }

  static build(tools: IndexedTool[], options: RankingOptions = RANKING): ToolIndex {
    return new ToolIndex(tools, options);
  }

  get size(): number {
    return this.tools.length;
  }

  /** The `limit` best tools for a plain-language query, best first (of those `keep` keeps); nothing when no word of it matches. */
  search(query: string, limit: number, keep?: (name: string) => boolean): ToolHit[] {
    if (!this.engine) return [];
    const { added, shape, backendBoost, coverage } = this.options;
    const { concepts } = planQuery(query, (t) => this.vocabulary.has(t), { added, shape });
    const scores = this.engine.scores(concepts);
    const covered = coverage > 0 ? this.engine.coverage(concepts) : undefined;
    const boost = this.backendBoost(concepts);
    const ranked: Array<[number, number]> = [];
    scores.forEach((s, i) => {
      if (s <= 0 || (keep && !keep(this.tools[i].name))) return;
      const share = covered ? (covered[i] / concepts.length) ** coverage : 1;
      ranked.push([i, s * share * (1 + backendBoost * (boost[this.backendOf[i]] ?? 0))]);
    });
    // Higher score first; then the shorter name (the more general tool), then the listing's order.
    ranked.sort((a, b) => b[1] - a[1] || this.tools[a[0]].name.length - this.tools[b[0]].name.length || a[0] - b[0]);
    return ranked.slice(0, limit).map(([i, score]) => {
      const t = this.tools[i];
      return {
        name: t.name,
        ...(t.title !== undefined && { title: t.title }),
        description: oneLine(t.description),
        score: Math.round(score * 1000) / 1000,
      };
    });
  }

  /** Each backend's match with the query, as a share of the best (0 … 1). */
  private backendBoost(concepts: readonly Concept[]): number[] {
    if (!this.backends) return [];
    const scores = [...this.backends.scores(concepts)];
    const top = Math.max(...scores);
    return top > 0 ? scores.map((s) => s / top) : scores;
  }
}

// What a tool list costs in a client's context, in tokens. Counted with a real BPE tokenizer,
// OpenAI's o200k_base (gpt-tokenizer, pure JavaScript, loaded only when counting): Anthropic's
// current tokenizer is not public, and o200k_base is the nearest published one; on tool JSON it
// counts within a few percent of characters/4. The text counted is the JSON the client receives.
import { listedTo, listedTool, type ListedTool } from './listing.js';
import { META_NAMES, META_TOOLS } from './meta-tools.js';
import type { PublishedTool } from '../registry/registry.js';
import { globMatcher } from '../kit/glob.js';

const TOKENIZER = 'o200k_base (gpt-tokenizer)';

export type TokenCounter = (text: string) => number;

export async function tokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => countTokens(text);
}

export interface ListCost {
  tools: number;
  tokens: number;
  bytes: number;
}

export interface TokenReport {
  tokenizer: string;
  tools: Array<{ name: string; tokens: number; bytes: number; pinned: boolean }>;
  flat: ListCost;
  discover: ListCost;
}

function cost(list: ListedTool[], count: TokenCounter): ListCost {
  const text = JSON.stringify({ tools: list });
  return { tools: list.length, tokens: count(text), bytes: Buffer.byteLength(text) };
}

/** Each tool's cost, and the whole `tools/list` answer's in both modes (`pinned`: tools.pinned). */
export function tokenReport(published: PublishedTool[], pinned: readonly string[], count: TokenCounter): TokenReport {
  const isPinned = pinned.length ? globMatcher([...pinned]) : () => false;
  // What a client without views receives (one that renders them is also listed the app-only tools, with their _meta).
  const listed = published.filter((t) => listedTo(t, false)).map((t) => listedTool(t));
  const pins = listed.filter((t) => isPinned(t.name) && !META_NAMES.has(t.name));
  return {
    tokenizer: TOKENIZER,
    tools: listed.map((t) => {
      const text = JSON.stringify(t);
      return { name: t.name, tokens: count(text), bytes: Buffer.byteLength(text), pinned: pins.includes(t) };
    }),
    flat: cost(listed, count),
    discover: cost([...META_TOOLS, ...pins], count),
  };
}

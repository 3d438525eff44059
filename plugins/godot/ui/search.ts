// The results of godot_search (its text answer is the JSON list [{uri, name, kind, score,
// snippet}]): each with its kind, score and snippet (the words that matched in bold). A result
// opens in place with godot_get_class or godot_get_symbol, and the box searches again with
// godot_search: calls from this view through the host to mcphost.
import './style.css';
import { el, showError, startView, type ToolOutcome, type View } from './app.js';
import { inline, markdown } from './markdown.js';

interface Hit {
  uri: string;
  name: string;
  kind: string;
  score: number;
  snippet: string;
}
interface SymbolDoc {
  qname: string;
  kind: string;
  signature?: string;
  description?: string;
  note?: string;
}
interface ClassDoc {
  name: string;
  inheritanceChain: string[];
  brief: string;
  methods: unknown[];
  properties: unknown[];
  signals: unknown[];
}

const $ = (id: string) => document.getElementById(id)!;
const status = (text: string) => ($('status').textContent = text);
let args: Record<string, unknown> = {};

function hits(outcome: ToolOutcome): Hit[] {
  const text = outcome.content?.find((c) => c.type === 'text')?.text ?? '[]';
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error('expected godot_search to answer with a JSON list');
  return parsed as Hit[];
}

function render(list: Hit[], query: string): void {
  ($('query') as HTMLInputElement).value = query;
  $('summary').textContent = list.length
    ? `${list.length} result${list.length === 1 ? '' : 's'} for “${query}”`
    : `Nothing found for “${query}”.`;
  $('results').replaceChildren(
    ...list.map((h, i) =>
      el(
        'li',
        { class: 'hit', 'data-index': String(i), 'data-name': h.name, 'data-kind': h.kind },
        el(
          'div',
          { class: 'head' },
          el('button', { type: 'button', class: 'open', 'data-name': h.name, 'data-kind': h.kind }, h.name),
          el('span', { class: `kind ${h.kind}` }, h.kind.replace('_', ' ')),
          el('span', { class: 'score' }, h.score.toFixed(2)),
        ),
        el('p', { class: 'snippet' }, ...inline(h.snippet)),
        el('div', { class: 'detail', hidden: '' }),
      ),
    ),
  );
}

async function open(item: HTMLElement): Promise<void> {
  const detail = item.querySelector('.detail') as HTMLElement;
  if (!detail.hidden) return void (detail.hidden = true);
  const { name, kind } = item.dataset as { name: string; kind: string };
  detail.hidden = false;
  detail.textContent = 'Loading…';
  if (kind === 'class') {
    const c = await view.call<ClassDoc>('godot_get_class', { name });
    detail.replaceChildren(
      el('p', { class: 'inherits' }, c.inheritanceChain.join(' < ')),
      el('p', {}, ...inline(c.brief)),
      el('p', { class: 'counts' }, `${c.properties.length} properties · ${c.methods.length} methods · ${c.signals.length} signals`),
    );
  } else {
    const s = await view.call<SymbolDoc>('godot_get_symbol', { qname: name });
    detail.replaceChildren(
      ...(s.signature ? [el('pre', {}, el('code', {}, s.signature))] : []),
      ...(s.note ? [el('p', { class: 'note' }, s.note)] : []),
      s.description ? markdown(s.description) : el('p', {}, 'No description.'),
    );
  }
}

async function searchAgain(query: string): Promise<void> {
  status(`Searching “${query}”…`);
  const text = await view.callText('godot_search', { query, ...(args.kind !== undefined && { kind: args.kind }), limit: args.limit ?? 10 });
  render(hits({ content: [{ type: 'text', text }] }), query);
  status('');
}

const view: View = startView('godot search results', {
  input: (a) => (args = a),
  result: (r) => {
    try {
      render(hits(r), String(args.query ?? ''));
    } catch (error) {
      showError($('results'), (error as Error).message);
    }
  },
  error: (message) => showError($('results'), message),
});

$('results').addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest('button.open');
  if (button) void open(button.closest('li')!).catch((e: Error) => status(e.message));
});
$('again').addEventListener('submit', (event) => {
  event.preventDefault();
  const query = ($('query') as HTMLInputElement).value.trim();
  if (query) void searchAgain(query).catch((e: Error) => status(e.message));
});

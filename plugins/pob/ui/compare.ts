// The comparison of pob_compare_builds as a chart of what changed: the headline stats (defences,
// damage, resistances, attributes) as bars of their change from A to B, then every saved stat that
// differs, the tree, gems, items and config. A click on "A" or "B" analyzes that build with
// pob_analyze_build, a call from this view through the host to mcphost.
import './style.css';
import { el, showError, startView, type View } from './app.js';
import { ATTRIBUTES, DAMAGE, DEFENCES, mainDamage, num, RESISTANCES } from './stats.js';

interface StatDelta {
  a?: number;
  b?: number;
  delta?: number;
  percent?: number;
}
interface Comparison {
  character: Record<string, { a?: unknown; b?: unknown }>;
  stats: Record<string, StatDelta>;
  statsCompared: number;
  tree: { a: { version?: string; nodeCount: number }; b: { version?: string; nodeCount: number }; added: number[]; removed: number[] };
  gems: { added: string[]; removed: string[] };
  items: Array<{ slot: string; a?: string; b?: string }>;
  config: Record<string, { a?: unknown; b?: unknown }>;
}

const HEADLINE = [...DAMAGE, ...DEFENCES, ...RESISTANCES, ...ATTRIBUTES];
const root = document.getElementById('compare')!;
let args: Record<string, unknown> = {};

/** A bar from the middle: right and green for a rise, left and red for a fall, its length the change in percent (capped at 100). */
function bar(key: string, label: string, d: StatDelta): HTMLElement {
  const pct = d.percent ?? (d.a === 0 && (d.b ?? 0) !== 0 ? 100 * Math.sign(d.b ?? 0) : 0);
  const width = Math.min(100, Math.abs(pct)) / 2;
  const side = (d.delta ?? 0) >= 0 ? 'up' : 'down';
  return el(
    'div',
    { class: `change ${side}`, 'data-stat': key, ...(d.delta !== undefined && { 'data-delta': String(d.delta) }) },
    el('span', { class: 'label' }, label),
    el('span', { class: 'axis' }, el('span', { class: 'fill', style: `width:${width.toFixed(1)}%` })),
    el('span', { class: 'from' }, d.a === undefined ? '—' : num(d.a)),
    el('span', { class: 'to' }, d.b === undefined ? '—' : num(d.b)),
    el('span', { class: 'pct' }, change(d)),
  );
}

function change(d: StatDelta): string {
  if (d.a === undefined) return 'new';
  if (d.b === undefined) return 'gone';
  if (d.percent === undefined) return 'from 0';
  return `${d.percent > 0 ? '+' : ''}${d.percent.toFixed(1)} %`;
}

/** What the caller passed for a side: a file's name, or that it was XML or a share code. */
function source(value: unknown): string {
  const text = String(value ?? '');
  if (text.trimStart().startsWith('<')) return 'build XML';
  if (/^[A-Za-z0-9_=-]{200,}$/.test(text)) return 'share code';
  return text.split(/[\\/]/).pop() ?? text;
}

function side(which: 'a' | 'b', c: Comparison): HTMLElement {
  const ch = (k: string) => c.character[k]?.[which];
  const button = el('button', { type: 'button', class: 'side', id: `open-${which}` }, which.toUpperCase());
  button.addEventListener(
    'click',
    () => void openBuild(which).catch((e: Error) => (document.getElementById('detail')!.textContent = e.message)),
  );
  const who = [ch('ascendClassName') ?? ch('className'), ch('level') !== undefined ? `level ${String(ch('level'))}` : '', ch('mainSkill')]
    .filter(Boolean)
    .join(' · ');
  return el('div', { class: 'who' }, button, el('span', {}, source(args[which])), ...(who ? [el('small', {}, who)] : []));
}

function render(c: Comparison): void {
  const shown = HEADLINE.filter(([k]) => c.stats[k]);
  const others = Object.entries(c.stats)
    .filter(([k]) => !shown.some(([s]) => s === k))
    .sort(([, x], [, y]) => Math.abs(y.percent ?? 1000) - Math.abs(x.percent ?? 1000));
  root.replaceChildren(
    el(
      'header',
      {},
      el('h1', {}, 'Build comparison'),
      el('span', { class: 'summary' }, `${Object.keys(c.stats).length} of ${c.statsCompared} saved stats differ`),
    ),
    el(
      'div',
      { class: 'sides' },
      side('a', c),
      side('b', c),
      ...(Object.keys(c.character).length === 0 ? [el('small', {}, 'same class, level and main skill')] : []),
    ),
    el('section', { id: 'detail', class: 'detail', hidden: '' }),
    el(
      'section',
      { class: 'chart', id: 'chart' },
      el(
        'div',
        { class: 'change head' },
        el('span', {}, ''),
        el('span', {}, 'change'),
        el('span', {}, 'A'),
        el('span', {}, 'B'),
        el('span', {}, ''),
      ),
      ...shown.map(([k, label]) => bar(k, label, c.stats[k])),
    ),
    el(
      'details',
      { class: 'others' },
      el('summary', {}, `Other stats that changed (${others.length})`),
      el('div', { class: 'chart' }, ...others.map(([k, d]) => bar(k, k, d))),
    ),
    el(
      'section',
      { class: 'facts' },
      el(
        'p',
        { id: 'tree' },
        `Tree: ${c.tree.a.version ?? '?'} ${c.tree.a.nodeCount} nodes → ${c.tree.b.version ?? '?'} ${c.tree.b.nodeCount} nodes; +${c.tree.added.length} −${c.tree.removed.length}`,
      ),
      el(
        'p',
        { id: 'gems' },
        `Gems: +${c.gems.added.length} −${c.gems.removed.length}`,
        el('small', {}, c.gems.added.length ? ` (+ ${c.gems.added.join(', ')})` : ''),
      ),
      el(
        'p',
        { id: 'items' },
        `Items changed: ${c.items.length}`,
        el('small', {}, c.items.length ? ` (${c.items.map((i) => i.slot).join(', ')})` : ''),
      ),
      el('p', { id: 'config' }, `Config changes: ${Object.keys(c.config).length}`),
    ),
  );
}

async function openBuild(which: 'a' | 'b'): Promise<void> {
  const detail = document.getElementById('detail')!;
  detail.hidden = false;
  detail.textContent = 'Analyzing…';
  const a = await view.call<{
    className?: string;
    ascendClassName?: string;
    level?: number;
    mainSkill?: { name?: string };
    stats: Record<string, number>;
  }>('pob_analyze_build', { build: args[which] });
  const damage = mainDamage(a.stats);
  detail.replaceChildren(
    el('h2', {}, `${which.toUpperCase()}: ${a.ascendClassName || a.className || ''}, level ${a.level ?? '?'}, ${a.mainSkill?.name ?? ''}`),
    el(
      'p',
      { class: 'line' },
      [...(damage ? [damage] : []), ...DEFENCES.slice(0, 3)]
        .map(([k, label]) => `${label} ${a.stats[k] === undefined ? '—' : num(a.stats[k])}`)
        .join(' · '),
    ),
  );
}

const view: View = startView('pob build comparison', {
  input: (a) => (args = a),
  result: (r) => {
    const data = r.structuredContent as unknown as Comparison | undefined;
    if (!data?.stats || !data.tree) return showError(root, 'This view shows pob_compare_builds results.');
    render(data);
  },
  error: (message) => showError(root, message),
});

// The build panel of pob_analyze_build: class, level and main skill (its gems), defences, damage,
// resistances against their cap, attributes, skills and items. "Share code" encodes the build with
// pob_encode, a call from this view through the host to mcphost.
import './style.css';
import { el, showError, startView, type View } from './app.js';
import { ATTRIBUTES, DEFENCES, mainDamage, num, RESISTANCES } from './stats.js';

interface Gem {
  name: string;
  level: number;
  quality: number;
  enabled: boolean;
  support: boolean;
}
interface Group {
  index: number;
  slot?: string;
  label?: string;
  enabled: boolean;
  main: boolean;
  gems: Gem[];
}
interface Item {
  slot: string;
  name?: string;
  base?: string;
  rarity?: string;
}
interface Analysis {
  className?: string;
  ascendClassName?: string;
  level?: number;
  mainSkill?: { group: number; name?: string; slot?: string };
  skills?: { groups: Group[] };
  items?: { equipped: Item[] };
  tree?: { version?: string; nodes?: number[] };
  stats: Record<string, number>;
}

const root = document.getElementById('build')!;
let args: Record<string, unknown> = {};

function stat(key: string, label: string, value: number | undefined, cls = 'tile'): HTMLElement {
  return el(
    'div',
    { class: cls, 'data-stat': key, ...(value !== undefined && { 'data-value': String(value) }) },
    el('span', { class: 'label' }, label),
    el('span', { class: 'value' }, value === undefined ? '—' : num(value)),
  );
}

function resistance(key: string, label: string, stats: Record<string, number>): HTMLElement {
  const value = stats[key];
  const over = stats[`${key}OverCap`];
  // Bars from -60 % to the 75 % cap (PoB's default maximum), the cap marked.
  const width = value === undefined ? 0 : Math.max(0, Math.min(100, ((value + 60) / 135) * 100));
  return el(
    'div',
    { class: `resist ${key}`, 'data-stat': key, ...(value !== undefined && { 'data-value': String(value) }) },
    el('span', { class: 'label' }, label),
    el('span', { class: 'bar' }, el('span', { class: 'fill', style: `width:${width.toFixed(1)}%` }), el('span', { class: 'cap' })),
    el('span', { class: 'value' }, value === undefined ? '—' : `${num(value)} %`),
    el('span', { class: 'over' }, over ? `+${num(over)} over cap` : ''),
  );
}

function render(a: Analysis): void {
  const stats = a.stats ?? {};
  const groups = a.skills?.groups ?? [];
  const main = groups.find((g) => g.main) ?? groups.find((g) => g.index === a.mainSkill?.group);
  const damage = mainDamage(stats);
  const share = el('button', { type: 'button', id: 'share' }, 'Share code');
  share.addEventListener('click', () => void shareCode().catch((e: Error) => (document.getElementById('code')!.textContent = e.message)));
  root.replaceChildren(
    el(
      'header',
      {},
      el(
        'h1',
        { id: 'character' },
        `${a.ascendClassName || a.className || 'Build'}`,
        el('small', {}, ` ${a.className ?? ''} · level ${a.level ?? '?'}`),
      ),
      share,
    ),
    el('pre', { id: 'code', class: 'code', hidden: '' }),
    el(
      'section',
      { id: 'main-skill', class: 'main-skill' },
      el('h2', {}, `Main skill: ${a.mainSkill?.name ?? '—'}`, el('small', {}, a.mainSkill?.slot ? ` (${a.mainSkill.slot})` : '')),
      el(
        'ul',
        { class: 'gems' },
        ...(main?.gems ?? []).map((g) => el('li', { class: g.support ? 'support' : 'active' }, `${g.name} ${g.level}/${g.quality}`)),
      ),
    ),
    el(
      'section',
      { class: 'tiles' },
      ...(damage ? [stat(damage[0], damage[1], stats[damage[0]], 'tile damage')] : []),
      ...DEFENCES.map(([k, label]) => stat(k, label, stats[k])),
    ),
    el('section', { class: 'resists' }, el('h2', {}, 'Resistances'), ...RESISTANCES.map(([k, label]) => resistance(k, label, stats))),
    el('section', { class: 'attributes' }, ...ATTRIBUTES.map(([k, label]) => stat(k, label, stats[k], 'attr'))),
    el(
      'details',
      { class: 'skills' },
      el('summary', {}, `Skills (${groups.length} socket groups)`),
      el(
        'ol',
        {},
        ...groups.map((g) =>
          el(
            'li',
            { class: g.main ? 'main' : '' },
            `${g.slot ?? g.label ?? ''}: ${g.gems.map((x) => `${x.name} ${x.level}/${x.quality}`).join(', ')}`,
          ),
        ),
      ),
    ),
    el(
      'details',
      { class: 'items' },
      el('summary', {}, `Items (${a.items?.equipped.length ?? 0})`),
      el(
        'ul',
        {},
        ...(a.items?.equipped ?? []).map((i) =>
          el('li', { class: (i.rarity ?? '').toLowerCase() }, `${i.slot}: ${[i.name, i.base].filter(Boolean).join(', ')}`),
        ),
      ),
    ),
  );
}

async function shareCode(): Promise<void> {
  const box = document.getElementById('code')!;
  box.hidden = false;
  box.textContent = 'Encoding…';
  box.textContent = await view.callText('pob_encode', { xml: args.build });
}

const view: View = startView('pob build panel', {
  input: (a) => (args = a),
  result: (r) => {
    const data = r.structuredContent as unknown as Analysis | undefined;
    if (!data?.stats) return showError(root, 'This view shows pob_analyze_build results.');
    render(data);
  },
  error: (message) => showError(root, message),
});

// The hex view of imhex_read_bytes and imhex_search. A read shows its bytes with the client's
// selection marked (asked with imhex_get_selection); a search lists its matches and shows the bytes
// around one (imhex_read_bytes), the match marked. Previous/next read the neighbouring range, a
// click on a byte asks imhex_get_offset_info for the data inspector: every call goes from this
// view through the host to mcphost.
import './style.css';
import { address, el, showError, startView, type View } from './app.js';
import { bytesOfHex, hexRows, type Marks } from './hex-rows.js';

interface ReadResult {
  offset: number;
  count: number;
  bytes_read: number;
  hex_data: string;
}
interface SearchResult {
  offsets: number[];
  truncated?: true;
}
interface Selection {
  start_offset: number | null;
  size: number;
  end_offset: number | null;
}
interface OffsetInfo {
  offset: number;
  address_str: string;
  inspector: {
    bytes_available: number;
    u8: number | null;
    i8: number | null;
    little_endian: Record<string, number | string | null>;
    big_endian: Record<string, number | string | null>;
    ascii: string;
  };
}

const $ = (id: string) => document.getElementById(id)!;
const SHOWN_MATCHES = 200;
/** Bytes shown around a match: two rows before it, the rest after. */
const CONTEXT = 96;

let args: Record<string, unknown> = {};
let current: { offset: number; count: number } | undefined;

function status(text: string): void {
  $('status').textContent = text;
}

async function selectionMarks(): Promise<Marks> {
  const s = await view.call<Selection>('imhex_get_selection', {});
  if (s.start_offset === null || s.end_offset === null) return { ranges: [] };
  return { ranges: [{ from: s.start_offset, to: s.end_offset, cls: 'sel' }] };
}

async function showRead(r: ReadResult): Promise<void> {
  current = { offset: r.offset, count: r.count };
  document.querySelector('nav')!.hidden = false;
  $('title').textContent = `Bytes at ${address(r.offset)}`;
  $('summary').textContent =
    `${r.bytes_read} of ${r.count} bytes read at ${address(r.offset)}${r.bytes_read < r.count ? ' (end of data)' : ''}.`;
  const bytes = bytesOfHex(r.hex_data);
  $('dump').replaceChildren(hexRows(r.offset, bytes));
  ($('prev') as HTMLButtonElement).disabled = r.offset === 0;
  ($('next') as HTMLButtonElement).disabled = r.bytes_read < r.count;
  const marks = await selectionMarks().catch((e: Error) => (status(`selection: ${e.message}`), { ranges: [] }));
  if (marks.ranges.length > 0) {
    $('dump').replaceChildren(hexRows(r.offset, bytes, marks));
    const [s] = marks.ranges;
    status(`Selection ${address(s.from)}–${address(s.to)} marked.`);
  }
}

function patternLength(): number {
  const text = String(args.pattern ?? '').replace(/\s+/g, '');
  return Math.max(1, Math.floor(text.length / 2));
}

async function showMatch(at: number): Promise<void> {
  for (const chip of document.querySelectorAll('.match-chip'))
    chip.classList.toggle('active', Number((chip as HTMLElement).dataset.offset) === at);
  const from = Math.max(0, at - (at % 16) - 32);
  const r = await view.call<ReadResult>('imhex_read_bytes', { offset: from, count: CONTEXT });
  const length = patternLength();
  $('dump').replaceChildren(hexRows(r.offset, bytesOfHex(r.hex_data), { ranges: [{ from: at, to: at + length - 1, cls: 'match' }] }));
  status(`Match at ${address(at)} (${length} bytes) marked.`);
}

function showSearch(r: SearchResult): void {
  current = undefined;
  document.querySelector('nav')!.hidden = true;
  const n = r.offsets.length;
  $('title').textContent = `Search ${String(args.pattern ?? '')}`;
  $('summary').textContent =
    n === 0 ? 'No match.' : `${r.truncated ? `First ${n} matches (more exist)` : `${n} match${n === 1 ? '' : 'es'}`}.`;
  const list = $('matches');
  list.hidden = n === 0;
  list.replaceChildren(
    ...r.offsets
      .slice(0, SHOWN_MATCHES)
      .map((at) => el('button', { type: 'button', class: 'match-chip', 'data-offset': String(at) }, address(at))),
    ...(n > SHOWN_MATCHES ? [el('span', { class: 'more' }, `… ${n - SHOWN_MATCHES} more`)] : []),
  );
  $('dump').replaceChildren();
  if (n > 0) void showMatch(r.offsets[0]).catch((e: Error) => status(e.message));
}

async function inspect(at: number): Promise<void> {
  const info = await view.call<OffsetInfo>('imhex_get_offset_info', { offset: at });
  const i = info.inspector;
  const row = (label: string, v: Record<string, number | string | null>) =>
    el('tr', {}, el('th', {}, label), ...['u16', 'i16', 'u32', 'i32', 'f32'].map((k) => el('td', {}, v[k] === null ? '—' : String(v[k]))));
  const panel = $('inspector');
  panel.hidden = false;
  panel.replaceChildren(
    el('h2', {}, `${info.address_str}: u8 ${i.u8 ?? '—'}, i8 ${i.i8 ?? '—'}, ASCII ${JSON.stringify(i.ascii)}`),
    el(
      'table',
      {},
      el('tr', {}, el('th', {}, ''), ...['u16', 'i16', 'u32', 'i32', 'f32'].map((k) => el('th', {}, k))),
      row('LE', i.little_endian),
      row('BE', i.big_endian),
    ),
  );
}

async function move(direction: -1 | 1): Promise<void> {
  if (!current) return;
  const offset = Math.max(0, current.offset + direction * current.count);
  await showRead(await view.call<ReadResult>('imhex_read_bytes', { offset, count: current.count }));
}

const view: View = startView('imhex hex view', {
  input: (a) => (args = a),
  result: (r) => {
    const data = r.structuredContent ?? {};
    if ('hex_data' in data) void showRead(data as unknown as ReadResult);
    else if ('offsets' in data) showSearch(data as unknown as SearchResult);
    else showError($('dump'), 'This view shows imhex_read_bytes and imhex_search results.');
  },
  error: (message) => showError($('dump'), message),
});

$('prev').addEventListener('click', () => void move(-1).catch((e: Error) => status(e.message)));
$('next').addEventListener('click', () => void move(1).catch((e: Error) => status(e.message)));
document.addEventListener('click', (event) => {
  const target = event.target as HTMLElement;
  if (target.classList.contains('match-chip')) void showMatch(Number(target.dataset.offset)).catch((e: Error) => status(e.message));
  else if (target.dataset.offset && (target.classList.contains('byte') || target.classList.contains('char'))) {
    void inspect(Number(target.dataset.offset)).catch((e: Error) => status(e.message));
  }
});

// The map of imhex_file_map: one cell per block coloured by its kind, the entropy of every block
// as a curve over the range, and the counts of each kind. A click on a block reads its first bytes
// with imhex_read_bytes; "zoom" maps that block alone in finer blocks with imhex_file_map; both
// are calls from this view, through the host, to mcphost.
import './style.css';
import './file-map.css';
import { address, el, showError, startView, type View } from './app.js';
import { bytesOfHex, hexRows } from './hex-rows.js';

type Kind = 'zeros' | 'ff' | 'text' | 'random' | 'binary';
interface Block {
  offset: number;
  size: number;
  entropy: number;
  zero: number;
  ff: number;
  text: number;
  control: number;
  high: number;
  kind: Kind;
}
interface FileMap {
  file_size: number;
  start_offset: number;
  end_offset: number;
  block_size: number;
  blocks: Block[];
  summary: { entropy_mean: number; kinds: Record<Kind, number> };
}
interface ReadResult {
  offset: number;
  bytes_read: number;
  hex_data: string;
}

const KINDS: Record<Kind, string> = {
  zeros: 'zeros',
  ff: '0xFF padding',
  text: 'text',
  random: 'compressed / encrypted',
  binary: 'binary',
};
const SHARES = ['zero', 'ff', 'text', 'control', 'high'] as const;
const READ_BYTES = 256;

const $ = (id: string) => document.getElementById(id)!;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
let whole: FileMap | undefined;
let shown: FileMap | undefined;

function status(text: string): void {
  $('status').textContent = text;
}

function render(map: FileMap): void {
  const zoomed = whole !== undefined && map !== whole;
  $('back').hidden = !zoomed;
  $('title').textContent = zoomed ? `Block ${address(map.start_offset)}` : 'File map';
  $('summary').textContent =
    `${address(map.start_offset)}–${address(map.end_offset)} of ${map.file_size} bytes: ${map.blocks.length} blocks of ` +
    `${map.block_size} bytes, mean entropy ${map.summary.entropy_mean} bits/byte.`;
  $('legend').replaceChildren(
    ...(Object.keys(KINDS) as Kind[]).map((k) =>
      el('span', { class: 'key', 'data-kind': k }, el('i', { class: `swatch ${k}` }), `${KINDS[k]}: ${map.summary.kinds[k] ?? 0}`),
    ),
  );
  const n = Math.max(1, map.blocks.length);
  const points = map.blocks.map((b, i) => `${((i + 0.5) / n) * 1000},${120 - (b.entropy / 8) * 116}`).join(' ');
  $('entropy').innerHTML =
    `<line x1="0" x2="1000" y1="${120 - (7.5 / 8) * 116}" y2="${120 - (7.5 / 8) * 116}" class="threshold"/>` +
    `<polyline points="${points}" class="curve"/>`;
  $('grid').replaceChildren(
    ...map.blocks.map((b, i) =>
      el('button', {
        type: 'button',
        class: `cell ${b.kind}`,
        'data-index': String(i),
        'data-offset': String(b.offset),
        title: `${address(b.offset)} · ${b.size} bytes · entropy ${b.entropy} · ${KINDS[b.kind]}`,
        style: `opacity:${(0.35 + (0.65 * b.entropy) / 8).toFixed(2)}`,
      }),
    ),
  );
  $('block').hidden = true;
  shown = map;
}

async function openBlock(map: FileMap, index: number): Promise<void> {
  const b = map.blocks[index];
  for (const c of document.querySelectorAll('.cell'))
    c.classList.toggle('active', c === document.querySelector(`.cell[data-index="${index}"]`));
  const r = await view.call<ReadResult>('imhex_read_bytes', { offset: b.offset, count: Math.min(READ_BYTES, b.size) });
  const zoom = el('button', { type: 'button', id: 'zoom' }, 'zoom into this block');
  zoom.addEventListener('click', () => void zoomInto(b).catch((e: Error) => status(e.message)));
  const panel = $('block');
  panel.hidden = false;
  panel.replaceChildren(
    el('h2', {}, `${address(b.offset)}–${address(b.offset + b.size)}: ${KINDS[b.kind]}, entropy ${b.entropy} bits/byte`),
    el('div', { class: 'shares' }, ...SHARES.map((k) => el('span', { class: 'share', 'data-share': k }, `${k} ${pct(b[k])}`))),
    hexRows(r.offset, bytesOfHex(r.hex_data)),
    b.size > 512 ? zoom : '',
  );
  status(`Read ${r.bytes_read} bytes at ${address(r.offset)}.`);
}

async function zoomInto(b: Block): Promise<void> {
  const map = await view.call<FileMap>('imhex_file_map', { start_offset: b.offset, end_offset: b.offset + b.size, blocks: 64 });
  render(map);
  status(`Mapped ${address(b.offset)}–${address(b.offset + b.size)} in ${map.blocks.length} blocks.`);
}

const view: View = startView('imhex file map', {
  result: (r) => {
    const data = r.structuredContent as unknown as FileMap | undefined;
    if (!data?.blocks) return showError($('grid'), 'This view shows imhex_file_map results.');
    whole = data;
    render(data);
  },
  error: (message) => showError($('grid'), message),
});

$('grid').addEventListener('click', (event) => {
  const cell = (event.target as HTMLElement).closest('.cell') as HTMLElement | null;
  if (cell && shown) void openBlock(shown, Number(cell.dataset.index)).catch((e: Error) => status(e.message));
});
$('back').addEventListener('click', () => whole && render(whole));

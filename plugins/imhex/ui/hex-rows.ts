// Rows of 16 bytes as hex editors draw them: the offset, the bytes in hex, the bytes as ASCII.
// Each byte is one element carrying its offset (data-offset), in both columns, so a selection or
// a match is marked on both sides and a click tells which byte it was.
import { address, el } from './app.js';

export function bytesOfHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const ascii = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

export interface Marks {
  /** Inclusive ranges [from, to] of offsets, each with the class it gets. */
  ranges: Array<{ from: number; to: number; cls: string }>;
}

export function hexRows(offset: number, bytes: Uint8Array, marks: Marks = { ranges: [] }): HTMLElement {
  const table = el('div', { class: 'hex', role: 'table' });
  const first = offset - (offset % 16);
  for (let row = first; row < offset + bytes.length; row += 16) {
    const hexCells = el('span', { class: 'bytes' });
    const asciiCells = el('span', { class: 'ascii' });
    for (let at = row; at < row + 16; at++) {
      const i = at - offset;
      if (i < 0 || i >= bytes.length) {
        hexCells.append(el('span', { class: 'byte pad' }, '  '));
        asciiCells.append(el('span', { class: 'char pad' }, ' '));
        continue;
      }
      const cls = marks.ranges.filter((r) => at >= r.from && at <= r.to).map((r) => r.cls);
      const attrs = { 'data-offset': String(at), class: ['byte', ...cls].join(' ') };
      hexCells.append(el('span', attrs, bytes[i].toString(16).padStart(2, '0')));
      asciiCells.append(el('span', { ...attrs, class: ['char', ...cls].join(' ') }, ascii(bytes[i])));
    }
    table.append(el('div', { class: 'row', role: 'row' }, el('span', { class: 'offset' }, address(row)), hexCells, asciiCells));
  }
  return table;
}

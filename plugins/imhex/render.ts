// Short text renderings next to the structured results, for people and for clients that only
// read text.
import type { Inspection, NumberViews } from './inspector.js';
import type { OffsetInfo, ReadBytesResult, SearchResult, Selection } from './protocol.js';

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;
const bytes = (n: number) => `${n} byte${n === 1 ? '' : 's'}`;

export function selectionText(s: Selection): string {
  if (s.start_offset === null || s.end_offset === null) return 'Nothing is selected.';
  return `Selected ${hex(s.start_offset)}–${hex(s.end_offset)} (${bytes(s.size)}, end inclusive).`;
}

export function setSelectionText(start: number, size: number): string {
  return size === 0 ? 'Selection cleared.' : `Selected ${bytes(size)} at ${hex(start)}.`;
}

/** The hex in groups of 16 bytes per line, so long reads stay readable. */
export function readText(r: ReadBytesResult): string {
  const head = `Read ${r.bytes_read} of ${bytes(r.count)} at ${hex(r.offset)}${r.bytes_read < r.count ? ' (end of data)' : ''}.`;
  const lines = r.hex_data.match(/.{1,32}/g) ?? [];
  return lines.length ? `${head}\n${lines.join('\n')}` : head;
}

export function writeText(offset: number, written: number): string {
  return `Wrote ${bytes(written)} at ${hex(offset)}.`;
}

export function searchText(pattern: string, r: SearchResult, shown = 20): string {
  const n = r.offsets.length;
  if (n === 0) return `No match for ${pattern}.`;
  const list = r.offsets.slice(0, shown).map(hex).join(', ');
  const more = n > shown ? `, … (${n - shown} more in the structured result)` : '';
  const head = r.truncated ? `First ${n} matches (more exist; raise max_results or narrow the range)` : `${n} match${n === 1 ? '' : 'es'}`;
  return `${head} for ${pattern}: ${list}${more}`;
}

function viewLine(label: string, v: NumberViews): string {
  const f = (x: unknown) => (x === null ? '—' : String(x));
  return `${label}: u16 ${f(v.u16)}  i16 ${f(v.i16)}  u32 ${f(v.u32)}  i32 ${f(v.i32)}  u64 ${f(v.u64)}  i64 ${f(v.i64)}  f32 ${f(v.f32)}  f64 ${f(v.f64)}`;
}

export function offsetInfoText(info: OffsetInfo, inspector: Inspection): string {
  if (inspector.bytes_available === 0) return `Offset ${info.offset} = ${info.address_str} (no data there: past the end).`;
  return [
    `Offset ${info.offset} = ${info.address_str}; ${bytes(inspector.bytes_available)}: ${inspector.hex}`,
    `u8 ${inspector.u8}  i8 ${inspector.i8}`,
    viewLine('LE', inspector.little_endian),
    viewLine('BE', inspector.big_endian),
    `ascii ${JSON.stringify(inspector.ascii)}  utf8 ${JSON.stringify(inspector.utf8)}`,
  ].join('\n');
}

// Left-aligned columns for the listing commands (tools, doctor, servers, …). Apart from render.ts so
// that a one-shot `call`, which prints no table, does not load string-width: building its Unicode
// property regexes and Intl.Segmenter is ~30 ms of start-up (bench/startup.bench.js).
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** Below this many columns a wrapped last column is unreadable: it goes on its own lines instead. */
const MIN_LAST_COLUMN = 32;
const STACK_INDENT = 4;

/**
 * Left-aligned columns. Without a width (piped) every row is one whole line (a multi-line last cell
 * continues under its column). With a width (a terminal) the last column is word-wrapped into the
 * room the others leave, or, when that is under MIN_LAST_COLUMN, moved under its row, indented —
 * as gh and docker do at 80 columns. Widths count what the terminal shows (string-width: colour
 * escapes are zero, CJK and emoji two).
 */
export function columns(rows: string[][], options: { gap?: number; width?: number } = {}): string {
  if (rows.length === 0) return '';
  const gap = options.gap ?? 2;
  const leading = Math.max(...rows.map((r) => r.length)) - 1;
  const widths = Array.from({ length: leading }, (_, i) => Math.max(...rows.map((r) => (i < r.length - 1 ? stringWidth(r[i]) : 0))));
  const lead = widths.reduce((sum, w) => sum + w + gap, 0);
  return rows
    .map((r) => {
      const head = r
        .slice(0, -1)
        .map((cell, i) => cell + ' '.repeat(Math.max(widths[i] + gap - stringWidth(cell), 0)))
        .join('');
      const last = r[r.length - 1] ?? '';
      const width = options.width;
      if (!width) return (head + last.split('\n').join(`\n${' '.repeat(lead)}`)).trimEnd();
      const room = width - lead;
      if (room >= MIN_LAST_COLUMN || last === '') return (head + wrap(last, room).join(`\n${' '.repeat(lead)}`)).trimEnd();
      const under = wrap(last, width - STACK_INDENT).map((line) => ' '.repeat(STACK_INDENT) + line);
      return [head.trimEnd(), ...under].join('\n');
    })
    .join('\n');
}

/**
 * Running text for a terminal of `width` (none: piped, left as it is), wrapped between words; every
 * line after the first of a paragraph is indented by `hang` (a usage line's continuation).
 */
export function paragraphs(text: string, width: number | undefined, indent = 0, hang = indent): string {
  if (!width) return text.replace(/^/gm, ' '.repeat(indent));
  return text
    .split('\n')
    .map((p) => {
      if (p.trim() === '') return p;
      const [first, ...rest] = wrap(p.trimStart(), width - hang);
      // The first line keeps its own indent; a first line that would not fit then is wrapped again.
      const head = stringWidth(first) + indent <= width ? [first] : wrap(first, width - indent);
      return [...head.map((l, i) => ' '.repeat(i === 0 ? indent : hang) + l), ...rest.map((l) => ' '.repeat(hang) + l)].join('\n');
    })
    .join('\n');
}

/** Word-wrapped lines of a cell (its own line breaks kept); a word longer than the room is broken. */
function wrap(text: string, room: number): string[] {
  return text.split('\n').flatMap((paragraph) => wrapAnsi(paragraph, Math.max(room, 1), { hard: true, trim: true }).split('\n'));
}

// The progress line: what reaches stderr for a person at a terminal, and what reaches a pipe.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressLine, type ProgressStream } from '../../src/cli/progress.js';
import { columns } from '../../src/cli/columns.js';

/** A stderr that records what was written; `isTTY` as a terminal or a pipe would say. */
function stream(isTTY: boolean, columns = 60): ProgressStream & { text(): string } {
  const chunks: string[] = [];
  return {
    isTTY,
    columns,
    // cli-progress moves the cursor through readline, which calls these on a terminal stream.
    ...({ cursorTo: (_x: number, cb?: () => void) => (chunks.push('\r'), cb?.(), true), clearLine: () => true } as object),
    write: (text: string) => chunks.push(text),
    text: () => chunks.join(''),
  };
}

const searchOf = (total: number, events: number) =>
  Array.from({ length: events }, (_, i) => {
    const done = Math.round(((i + 1) / events) * total);
    return { progress: done, total, message: `searched ${done} of ${total} bytes` };
  });

// Terminal control sequences: cursor moves, erase, save/restore, wrap off.
const CONTROL = /\r|\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/;

describe('progress on a terminal', () => {
  afterEach(() => void vi.useRealTimers());

  it('is one line redrawn in place, with a bar and a percentage, cut to the width and cleared at the end', () => {
    // A 1 GiB search reports ~85 times over about a second; the clock is faked to replay that.
    vi.useFakeTimers();
    const err = stream(true, 50);
    const line = progressLine({ stream: err });
    for (const update of searchOf(2 ** 30, 85)) {
      line.update(update, 'info');
      vi.advanceTimersByTime(12);
    }
    line.stop();
    const text = err.text();
    expect(text).not.toContain('\n');
    const frames = text.split(CONTROL).filter(Boolean);
    expect(frames.length).toBeGreaterThan(5);
    expect(frames[0]).toMatch(/^\[-{20}\]\s+1% searched \d+ of/);
    expect(frames.at(-1)).toMatch(/^\[={20}\] 100% searched 1073741824 …$/);
    for (const frame of frames) expect(frame.length).toBeLessThanOrEqual(49);
    // Cleared at the end: the last thing written erases the whole line.
    expect(text.endsWith('\u001b[2K')).toBe(true);
  });

  it('shows the message and count when the total is unknown', () => {
    const err = stream(true);
    const line = progressLine({ stream: err });
    line.update({ progress: 3, message: 'indexing classes' }, 'info');
    line.stop();
    expect(err.text()).toContain('indexing classes (3)');
  });

  it('says nothing with --json, or at a log level below info', () => {
    for (const [json, level] of [
      [true, 'info'],
      [false, 'warn'],
      [false, 'error'],
      [false, 'silent'],
    ] as const) {
      const err = stream(true);
      const line = progressLine({ stream: err, json });
      for (const update of searchOf(100, 10)) line.update(update, level);
      line.stop();
      expect(err.text(), `${json} ${level}`).toBe('');
    }
  });
});

describe('progress into a pipe', () => {
  it('prints nothing at the default level', () => {
    const err = stream(false);
    const line = progressLine({ stream: err });
    for (const update of searchOf(2 ** 30, 85)) line.update(update, 'info');
    line.stop();
    expect(err.text()).toBe('');
  });

  it('prints a rate-limited plain line at debug', () => {
    const err = stream(false);
    const line = progressLine({ stream: err });
    for (const update of searchOf(2 ** 30, 85)) line.update(update, 'debug');
    line.stop();
    // The 85 updates arrive within the two seconds: only the first is printed.
    expect(err.text()).toMatch(/^\[mcphost\] debug: progress \d+\/1073741824 \(1%\) searched \d+ of 1073741824 bytes\n$/);
  });
});

describe('tables', () => {
  const rows = [
    ['imhex_search', 'Search', 'Searches the data for a byte pattern with ?? wildcards, reporting progress on big files'],
    ['imhex_read_bytes', 'Read bytes', 'Reads bytes at an offset'],
  ];

  it('wrap the last column between words in the room the others leave', () => {
    const lines = columns(rows, { width: 64 }).split('\n');
    expect(lines).toEqual([
      'imhex_search      Search      Searches the data for a byte',
      '                              pattern with ?? wildcards,',
      '                              reporting progress on big files',
      'imhex_read_bytes  Read bytes  Reads bytes at an offset',
    ]);
  });

  it('put the last column under its row when the room left is too narrow to read', () => {
    const lines = columns(rows, { width: 50 }).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'imhex_search      Search',
      '    Searches the data for a byte pattern with ??',
      '    wildcards, reporting progress on big files',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(50);
  });

  it('keep whole lines when there is no terminal', () => {
    expect(columns(rows).split('\n')[0]).toBe(`imhex_search      Search      ${rows[0][2]}`);
  });
});

// One walk through every imhex tool, run through `mcphost serve` and through `mcphost call`,
// against the fake ImHex and against a real file. Every value is checked against bytes read
// independently (`truth()`: the file read with fs, or the fake's buffer) or against real xxd.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { CallOutcome } from '../../../src/registry/result.ts';
import type { InProcessSession } from '../../helpers/in-process.ts';
import { naiveSearch } from './helpers.ts';

export interface ToolOutcome {
  isError: boolean;
  structured: Record<string, any>;
  /** An error result's `{ code, message, data }` (`_meta["mcphost/error"]`). */
  error?: Record<string, any>;
  text: string;
}

export type CallTool = (tool: string, args: Record<string, unknown>) => Promise<ToolOutcome>;

interface WireResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
}

function outcome(r: WireResult): ToolOutcome {
  return {
    isError: r.isError === true,
    structured: (r.structuredContent ?? {}) as Record<string, any>,
    error: r._meta?.['mcphost/error'] as Record<string, any> | undefined,
    text: r.content.map((c) => c.text ?? '').join('\n'),
  };
}

/** imhex_<tool> through an MCP session (the official SDK client). */
export function sdkCall(session: Pick<InProcessSession, 'client'>): CallTool {
  return async (tool, args) => outcome((await session.client.callTool({ name: `imhex_${tool}`, arguments: args })) as WireResult);
}

/** `mcphost call imhex <tool>` in-process, with `call`'s outcome. */
export function oneShotCall(run: (tool: string, args: Record<string, unknown>) => Promise<CallOutcome>): CallTool {
  return async (tool, args) => outcome((await run(tool, args)).result as WireResult);
}

export interface ScenarioOptions {
  /** Does a selection survive from one call to the next? (not for one-shot calls on a file) */
  persistentSelection: boolean;
  /** The current bytes, read independently of the plugin. */
  truth(): Buffer;
}

export const hasXxd = (() => {
  try {
    execFileSync('xxd', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** xxd's dump of `bytes[offset, offset+count)`, or undefined when xxd is not installed. */
export function realXxd(bytes: Buffer, offset: number, count: number): string | undefined {
  if (!hasXxd) return undefined;
  const file = path.join(tmpdir(), `imhex-xxd-${process.pid}-${Date.now()}.bin`);
  writeFileSync(file, bytes);
  try {
    return execFileSync('xxd', ['-s', String(offset), '-l', String(count), file], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    }).replace(/\n$/, '');
  } finally {
    rmSync(file, { force: true });
  }
}

export async function everyTool(call: CallTool, o: ScenarioOptions): Promise<void> {
  const ok = async (tool: string, args: Record<string, unknown>) => {
    const r = await call(tool, args);
    expect(r.isError, `${tool} failed: ${r.text}`).toBe(false);
    expect(r.text.length).toBeGreaterThan(0);
    return r;
  };
  const size = o.truth().length;

  const none = await ok('get_selection', {});
  if (o.persistentSelection) expect(none.structured).toEqual({ start_offset: null, size: 0, end_offset: null });
  const set = await ok('set_selection', { start_offset: 256, size: 16 });
  expect(set.structured).toEqual({ status: 'success', start_offset: 256, size: 16 });
  expect(set.text).toBe('Selected 16 bytes at 0x100.');
  if (o.persistentSelection) {
    const got = await ok('get_selection', {});
    expect(got.structured).toEqual({ start_offset: 256, size: 16, end_offset: 271 });
    expect(got.text).toBe('Selected 0x100–0x10F (16 bytes, end inclusive).');
  }

  const read = await ok('read_bytes', { offset: 256 });
  expect(read.structured).toEqual({ offset: 256, count: 256, bytes_read: 256, hex_data: o.truth().subarray(256, 512).toString('hex') });
  expect(read.text.split('\n')[1]).toBe(o.truth().subarray(256, 272).toString('hex'));
  const tail = await ok('read_bytes', { offset: size - 10, count: 16 });
  expect(tail.structured).toEqual({
    offset: size - 10,
    count: 16,
    bytes_read: 10,
    hex_data: o
      .truth()
      .subarray(size - 10)
      .toString('hex'),
  });

  const write = await ok('write_bytes', { offset: 300, data: 'de ad BE ef' });
  expect(write.structured).toEqual({ offset: 300, bytes_written: 4, status: 'success' });
  expect(o.truth().subarray(300, 304).toString('hex')).toBe('deadbeef');

  const pattern = [0xde, 0xad, null, 0xef];
  const found = await ok('search', { pattern: 'DE AD ?? EF' });
  expect(found.structured).toEqual({ offsets: naiveSearch(o.truth(), pattern) });
  expect(found.structured.offsets).toContain(300);
  const ranged = await ok('search', { pattern: 'dead??ef', start_offset: 301, end_offset: size });
  expect(ranged.structured).toEqual({ offsets: naiveSearch(o.truth(), pattern, 301, size) });
  const zeros = naiveSearch(o.truth(), [0x00, null]);
  expect(zeros.length).toBeGreaterThan(3);
  const capped = await ok('search', { pattern: '00 ??', max_results: 3 });
  expect(capped.structured).toEqual({ offsets: zeros.slice(0, 3), truncated: true });
  expect(capped.text).toMatch(/^First 3 matches \(more exist; raise max_results or narrow the range\) for 00 \?\?: 0x/);

  const info = await ok('get_offset_info', { offset: 300 });
  const at = o.truth().subarray(300, 316);
  expect(info.structured).toMatchObject({ offset: 300, address_str: '0x0000012C' });
  const inspector = info.structured.inspector;
  expect(inspector.hex).toBe(at.toString('hex'));
  expect(inspector.u8).toBe(at.readUInt8(0));
  expect(inspector.big_endian.u32).toBe(at.readUInt32BE(0));
  expect(inspector.little_endian.i32).toBe(at.readInt32LE(0));
  expect(inspector.little_endian.u64).toBe(at.readBigUInt64LE(0).toString());
  expect(info.text).toMatch(/^Offset 300 = 0x0000012C; 16 bytes: deadbeef/);

  const dump = await ok('hexdump', { offset: 250, count: 40 });
  expect(dump.structured).toMatchObject({ offset: 250, count: 40, bytes_read: 40 });
  const expected = realXxd(o.truth(), 250, 40);
  if (expected !== undefined) expect(dump.structured.dump).toBe(expected);
  else
    expect(
      dump.structured.dump
        .split('\n')
        .map((l: string) => l.slice(10, 49).replace(/ /g, ''))
        .join(''),
    ).toBe(o.truth().subarray(250, 290).toString('hex'));
  expect(dump.text).toBe(dump.structured.dump);

  // Bad input: the protocol's -32602, naming the field.
  const bad = async (tool: string, args: Record<string, unknown>, message: RegExp) => {
    const r = await call(tool, args);
    expect(r.isError, `${tool} ${JSON.stringify(args)} should fail`).toBe(true);
    expect(r.error!).toMatchObject({ code: -32602 });
    expect(r.error!.message).toMatch(message);
  };
  await bad('read_bytes', { offset: -1, count: 4 }, /^offset: must be 0 or more, got -1/);
  await bad('read_bytes', { offset: 0, count: 2 * 1024 * 1024 }, /^count: 2097152 is over the limit of 1048576 bytes/);
  await bad('write_bytes', { offset: 0, data: 'abc' }, /^data: has an odd number of hex digits/);
  await bad('write_bytes', { offset: 0, data: 'xyz1' }, /^data: "x" at position 0 is not a hex digit/);
  await bad('search', { pattern: '' }, /^pattern: is empty/);
  await bad('search', { pattern: '00', start_offset: 10, end_offset: 5 }, /^end_offset: 5 is before start_offset 10/);
  await bad('set_selection', { start_offset: -5, size: 1 }, /^start_offset: must be 0 or more/);
}

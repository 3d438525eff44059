// PoB share codes: URL-safe base64 (`-` and `_`, padding kept) of zlib-deflated build XML.
// Inflating and deflating run on libuv's thread pool, never on the event loop, and inflating stops
// at the XML size cap (a small code can inflate to gigabytes).
import { promisify } from 'node:util';
import { deflate, deflateSync, unzip } from 'node:zlib';
import { ToolError } from '../../../src/backend/index.js';
import { MAX_XML_BYTES, tooLarge } from './limits.js';

const unzipAsync = promisify(unzip);
const deflateAsync = promisify(deflate);
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** True when `text` (whitespace ignored) could be a share code: base64 in either alphabet. */
export function looksLikeShareCode(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return compact.length >= 8 && BASE64.test(compact);
}

/** Decodes a share code to XML text; garbage is a ToolError saying which step failed. */
export async function decodeShareCode(code: string, field = 'code'): Promise<string> {
  const compact = code.replace(/\s+/g, '');
  if (compact === '') throw new ToolError(`${field}: the share code is empty`, { code: 'BAD_SHARE_CODE', data: { field } });
  // Base64 of zlib data that inflates to at most the cap is far shorter than the cap.
  if (compact.length > MAX_XML_BYTES) throw tooLarge(field, `the share code is ${compact.length} characters long`);
  if (!BASE64.test(compact)) {
    const bad = [...compact].find((c) => !/[A-Za-z0-9+/_=-]/.test(c));
    throw new ToolError(
      `${field}: not a share code: ${bad ? `it contains ${JSON.stringify(bad)}, which is not base64` : 'its padding is misplaced'} (a PoB share code is URL-safe base64 of zlib-deflated build XML)`,
      { code: 'BAD_SHARE_CODE', data: { field, reason: 'not base64' } },
    );
  }
  const bytes = Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let xml: Buffer;
  try {
    xml = await unzipAsync(bytes, { maxOutputLength: MAX_XML_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge(field, `the share code (${compact.length} characters) inflates to more than that`);
    throw new ToolError(
      `${field}: not a share code: the base64 decodes to ${bytes.length} bytes that are not zlib data (${(error as Error).message})`,
      { code: 'BAD_SHARE_CODE', data: { field, reason: 'not zlib' }, cause: error },
    );
  }
  return xml.toString('utf8');
}

const urlSafe = (deflated: Buffer) => deflated.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

/** Encodes build XML as a share code PoB imports (zlib, URL-safe base64 with padding), off the event loop. */
export async function encodeShareCode(xml: string): Promise<string> {
  return urlSafe(await deflateAsync(Buffer.from(xml, 'utf8'), { level: 9 }));
}

/** The same, synchronously: for small text (tests, scripts). */
export function encodeShareCodeSync(xml: string): string {
  return urlSafe(deflateSync(Buffer.from(xml, 'utf8'), { level: 9 }));
}

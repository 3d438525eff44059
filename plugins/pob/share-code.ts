// PoB share codes: URL-safe base64 (`-` and `_`, padding kept) of zlib-deflated build XML.
import { deflateSync, unzipSync } from 'node:zlib';
import { ToolError } from '../../src/backend/index.js';

const MAX_XML_BYTES = 64 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** True when `text` (whitespace ignored) could be a share code: base64 in either alphabet. */
export function looksLikeShareCode(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return compact.length >= 8 && BASE64.test(compact);
}

/** Decodes a share code to XML text; garbage is a ToolError saying which step failed. */
export function decodeShareCode(code: string, field = 'code'): string {
  const compact = code.replace(/\s+/g, '');
  if (compact === '') throw new ToolError(`${field}: the share code is empty`, { code: 'BAD_SHARE_CODE', data: { field } });
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
    xml = unzipSync(bytes, { maxOutputLength: MAX_XML_BYTES });
  } catch (error) {
    throw new ToolError(
      `${field}: not a share code: the base64 decodes to ${bytes.length} bytes that are not zlib data (${(error as Error).message})`,
      {
        code: 'BAD_SHARE_CODE',
        data: { field, reason: 'not zlib' },
        cause: error,
      },
    );
  }
  return xml.toString('utf8');
}

/** Encodes build XML as a share code PoB imports (zlib, URL-safe base64 with padding). */
export function encodeShareCode(xml: string): string {
  return deflateSync(Buffer.from(xml, 'utf8'), { level: 9 }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

// A build argument is raw XML, a share code, or the path of a file holding either.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../src/backend/index.js';
import { decodeShareCode, looksLikeShareCode } from './share-code.js';
import { parseBuildXml, type XmlElement } from './xml.js';

export type BuildSource = 'xml' | 'code' | 'file';

export interface BuildText {
  xml: string;
  source: BuildSource;
  /** The file it came from, for `file`. */
  file?: string;
}

export interface ParsedBuild extends BuildText {
  root: XmlElement;
}

const MAX_FILE_BYTES = 32 * 1024 * 1024;

function isXml(text: string): boolean {
  return /^\uFEFF?\s*</.test(text);
}

function fileAt(candidate: string): string | undefined {
  if (candidate.length > 4096 || candidate.includes('\n')) return undefined;
  try {
    const resolved = path.resolve(candidate);
    return statSync(resolved).isFile() ? resolved : undefined;
  } catch {
    return undefined;
  }
}

function looksLikePath(text: string): boolean {
  return /^(\.{0,2}\/|~|[A-Za-z]:\\)/.test(text) || /\.(xml|txt|pob)$/i.test(text);
}

/** Turns a build argument into XML text (not yet checked to be a PoB document). */
export function readBuildText(input: string, field = 'build'): BuildText {
  const text = input.trim();
  if (text === '')
    throw new ToolError(`${field} is empty: give build XML, a share code, or a file path`, { code: 'BAD_BUILD', data: { field } });
  if (isXml(text)) return { xml: text, source: 'xml' };
  const file = fileAt(text);
  if (file) {
    const size = statSync(file).size;
    if (size > MAX_FILE_BYTES)
      throw new ToolError(`${field}: ${file} is ${size} bytes, more than a build file can be`, {
        code: 'BAD_BUILD',
        data: { field, file },
      });
    const content = readFileSync(file, 'utf8').trim();
    if (isXml(content)) return { xml: content, source: 'file', file };
    if (looksLikeShareCode(content)) return { xml: decodeShareCode(content, `${field} (${file})`), source: 'file', file };
    throw new ToolError(`${field}: ${file} holds neither build XML nor a share code`, { code: 'BAD_BUILD', data: { field, file } });
  }
  if (/^https?:\/\//i.test(text)) {
    throw new ToolError(`${field}: build links are not fetched (${text}); open the link and pass the share code or the XML`, {
      code: 'BAD_BUILD',
      data: { field },
    });
  }
  if (looksLikePath(text) && !looksLikeShareCode(text)) {
    throw new ToolError(`${field}: no such file: ${path.resolve(text)}`, { code: 'NOT_FOUND', data: { field, file: path.resolve(text) } });
  }
  return { xml: decodeShareCode(text, field), source: 'code' };
}

/** Reads and parses a build argument; every failure names the field and what was expected. */
export function readBuild(input: string, field = 'build'): ParsedBuild {
  const text = readBuildText(input, field);
  return { ...text, root: parseBuildXml(text.xml, field) };
}

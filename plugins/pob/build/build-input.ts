// A build argument is raw XML, a share code, or the path of a file holding either. Reading it
// never blocks the event loop on a large input, and anything past the size cap is refused. A path
// goes through the host's ctx.files: a remote client may name only files inside the roots.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolError, type FileAccess } from '../../../src/backend/index.js';
import { fileKind, NotRegularFileError, readRegularFile } from '../../../src/kit/index.js';
import { MAX_XML_BYTES, tooLarge } from './limits.js';
import { decodeShareCode, looksLikeShareCode } from './share-code.js';

type BuildSource = 'xml' | 'code' | 'file';

export interface BuildText {
  xml: string;
  source: BuildSource;
  /** The file it came from, for `file`: as the client named it when the client is remote. */
  file?: string;
}

function isXml(text: string): boolean {
  return /^\uFEFF?\s*</.test(text);
}

/** The file the argument names (`size` unset when nothing is there), or undefined when it cannot be a path. */
async function fileAt(candidate: string, field: string, files?: FileAccess): Promise<{ file: string; size?: number } | undefined> {
  if (candidate.length > 4096 || candidate.includes('\n')) return undefined;
  let resolved: string;
  try {
    resolved = files ? await files.resolve(candidate, { field }) : path.resolve(candidate);
  } catch (error) {
    // Refused (a remote client, outside the roots): what does not look like a path is taken as a share code or link.
    if (!looksLikePath(candidate)) return undefined;
    throw error;
  }
  const info = await stat(resolved).catch(() => undefined);
  if (!info) return { file: resolved };
  // A FIFO, socket or device would block the read (or never end): refused by its type, at once.
  const kind = fileKind(info);
  if (kind) throw notAFile(field, new NotRegularFileError(files?.remote ? candidate : resolved, kind));
  return { file: resolved, size: info.size };
}

function notAFile(field: string, error: NotRegularFileError): ToolError {
  return new ToolError(`${field}: ${error.path} is a ${error.kind}, not a regular file: give build XML, a share code, or a build file`, {
    code: 'BAD_BUILD',
    data: { field, file: error.path, kind: error.kind },
  });
}

function looksLikePath(text: string): boolean {
  return /^(\.{0,2}\/|~|[A-Za-z]:\\)/.test(text) || /\.(xml|txt|pob)$/i.test(text);
}

/** Turns a build argument into XML text (not yet checked to be a PoB document); `files` is the call's ctx.files. */
export async function readBuildText(input: string, field = 'build', files?: FileAccess): Promise<BuildText> {
  if (input.length > MAX_XML_BYTES) throw tooLarge(field, `it is ${input.length} characters long`);
  const text = input.trim();
  if (text === '')
    throw new ToolError(`${field} is empty: give build XML, a share code, or a file path`, { code: 'BAD_BUILD', data: { field } });
  if (isXml(text)) return { xml: text, source: 'xml' };
  const found = await fileAt(text, field, files);
  // To a network client a file is named as it gave it: the server's folders are not its business.
  const shown = (file: string) => (files?.remote ? text : file);
  if (found?.size !== undefined) {
    const { file, size } = found;
    if (size > MAX_XML_BYTES) throw tooLarge(`${field} (${shown(file)})`, `the file is ${size} bytes`);
    const content = (
      await readRegularFile(file, 'utf8').catch((error: unknown) => {
        if (!(error instanceof NotRegularFileError)) throw error;
        throw notAFile(field, files?.remote ? new NotRegularFileError(text, error.kind) : error);
      })
    ).trim();
    if (isXml(content)) return { xml: content, source: 'file', file: shown(file) };
    if (looksLikeShareCode(content))
      return { xml: await decodeShareCode(content, `${field} (${shown(file)})`), source: 'file', file: shown(file) };
    throw new ToolError(`${field}: ${shown(file)} holds neither build XML nor a share code`, {
      code: 'BAD_BUILD',
      data: { field, file: shown(file) },
    });
  }
  if (/^https?:\/\//i.test(text)) {
    throw new ToolError(`${field}: build links are not fetched (${text}); open the link and pass the share code or the XML`, {
      code: 'BAD_BUILD',
      data: { field },
    });
  }
  if (looksLikePath(text) && !looksLikeShareCode(text)) {
    const file = shown(found?.file ?? path.resolve(text));
    throw new ToolError(`${field}: no such file: ${file}`, { code: 'NOT_FOUND', data: { field, file } });
  }
  return { xml: await decodeShareCode(text, field), source: 'code' };
}

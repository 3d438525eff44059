// Reads and parses a run of class files into index entries plus their term statistics. Runs in a
// parse worker (parse-worker.ts) or, for small folders and in tests, in the main thread.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseClassXml, XmlDocError } from '../parse/xml.js';
import { entriesOf, type ClassEntry, type DocEntry } from './entries.js';
import { PartialIndex, type PartialData } from './partial.js';

export interface FileTask {
  /** Position of the file in the corpus (results are merged in this order). */
  i: number;
  rel: string;
}

export type FileResult =
  | { i: number; cls: ClassEntry; docs: Array<Omit<DocEntry, 'cls'>>; refs: Array<[string, number]>; firstDoc: number }
  | { i: number; error: string };

export interface ProcessedRun {
  files: FileResult[];
  partial: PartialData;
}

/** Each distinct reference once, with how often it occurs (fewer strings to hand between threads). */
function counted(refs: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const ref of refs) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  return [...counts];
}

export function describeParseError(root: string, rel: string, error: unknown): string {
  const where = path.join(root, rel);
  if (error instanceof XmlDocError) return `skipped ${where}: XML parse error at line ${error.line}, column ${error.col}: ${error.reason}`;
  return `skipped ${where}: ${(error as Error).message}`;
}

/** Parses class files into entries, adding their documents to `partial`. */
export function processInto(partial: PartialIndex, root: string, tasks: FileTask[], onProgress?: (done: number) => void): FileResult[] {
  const files: FileResult[] = [];
  tasks.forEach((task, n) => {
    try {
      const parsed = entriesOf(parseClassXml(readFileSync(path.join(root, task.rel), 'utf8'), task.rel), task.rel);
      const firstDoc = partial.size;
      for (const d of parsed.docs) partial.add(d.fields);
      files.push({ i: task.i, cls: parsed.cls, docs: parsed.docs.map((d) => d.entry), refs: counted(parsed.refs), firstDoc });
    } catch (error) {
      files.push({ i: task.i, error: describeParseError(root, task.rel, error) });
    }
    if (onProgress && (n + 1) % 32 === 0) onProgress(n + 1);
  });
  return files;
}

export function processFiles(root: string, tasks: FileTask[], onProgress?: (done: number) => void): ProcessedRun {
  const partial = new PartialIndex();
  const files = processInto(partial, root, tasks, onProgress);
  return { files, partial: partial.finish() };
}

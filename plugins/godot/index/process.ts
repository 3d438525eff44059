// Reads and parses a run of class files into index entries with the text of their fields. Runs in a
// parse worker (parse-worker.ts) or, for small folders and on machines with few cores, in the main
// thread. The terms are counted later, in the main thread, once every file's anchors are known.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseClassXml, XmlDocError } from '../parse/xml.js';
import { entriesOf, type ClassEntries } from './entries.js';

export interface FileTask {
  /** Position of the file in the corpus (results are merged in this order). */
  i: number;
  rel: string;
}

export type FileResult = ({ i: number } & Omit<ClassEntries, 'refs'> & { refs: Array<[string, number]> }) | { i: number; error: string };

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

export function processFiles(root: string, tasks: FileTask[], onProgress?: (done: number) => void): FileResult[] {
  const files: FileResult[] = [];
  tasks.forEach((task, n) => {
    try {
      const parsed = entriesOf(parseClassXml(readFileSync(path.join(root, task.rel), 'utf8'), task.rel), task.rel);
      files.push({ i: task.i, ...parsed, refs: counted(parsed.refs) });
    } catch (error) {
      files.push({ i: task.i, error: describeParseError(root, task.rel, error) });
    }
    if (onProgress && (n + 1) % 32 === 0) onProgress(n + 1);
  });
  return files;
}

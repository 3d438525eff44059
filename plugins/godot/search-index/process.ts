// Reads and parses a run of class files into index entries, counting the terms of their fields into
// a partial index as it goes (so no file's text outlives its parse). Runs in a parse worker
// (parse-worker.ts) or, for small folders, in the main thread. The anchor and manual fields are counted later,
// once every file's anchors are known (build.ts).
import path from 'node:path';
import { readClassFile } from '../corpus/read-file.js';
import { parseClassXml, XmlDocError } from '../parse/xml.js';
import { entriesOf, type ClassEntries, type DocEntry } from './entries.js';
import type { PartialIndex, PartialData } from './partial.js';

export interface FileTask {
  /** Position of the file in the corpus (results are merged in this order). */
  i: number;
  rel: string;
}

interface ParsedFile extends Pick<ClassEntries, 'cls' | 'anchors'> {
  i: number;
  docs: Array<{ entry: Omit<DocEntry, 'cls'>; summary: string }>;
  refs: Array<[string, number]>;
  /** Local id (in the run's partial index) of the file's first document. */
  firstDoc: number;
}

export type FileResult = ParsedFile | { i: number; error: string };

/** A run of files and the partial index of their documents. */
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

function describeParseError(root: string, rel: string, error: unknown): string {
  const where = path.join(root, rel);
  if (error instanceof XmlDocError) return `skipped ${where}: XML parse error at line ${error.line}, column ${error.col}: ${error.reason}`;
  return `skipped ${where}: ${(error as Error).message}`;
}

export function processFiles(root: string, tasks: FileTask[], partial: PartialIndex, onProgress?: (done: number) => void): FileResult[] {
  const files: FileResult[] = [];
  tasks.forEach((task, n) => {
    try {
      const parsed = entriesOf(parseClassXml(readClassFile(path.join(root, task.rel)), task.rel), task.rel);
      const firstDoc = partial.size;
      for (const d of parsed.docs) partial.add(d.fields);
      const docs = parsed.docs.map(({ entry, summary }) => ({ entry, summary }));
      files.push({ i: task.i, cls: parsed.cls, docs, refs: counted(parsed.refs), anchors: parsed.anchors, firstDoc });
    } catch (error) {
      files.push({ i: task.i, error: describeParseError(root, task.rel, error) });
    }
    if (onProgress && (n + 1) % 32 === 0) onProgress(n + 1);
  });
  return files;
}

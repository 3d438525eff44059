// Types for the two wink packages the index uses (neither ships its own).
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}

declare module 'wink-bm25-text-search' {
  /** wink chains the tasks; the one task given here turns a field's text into its tokens. */
  type PrepTask = (text: string) => string[];
  export interface BM25 {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
      ovFldNames?: string[];
    }): boolean;
    definePrepTasks(tasks: PrepTask[], field?: string): number;
    addDoc(doc: Record<string, unknown>, id: string | number): number;
    consolidate(fp?: number): boolean;
    search(
      text: string,
      limit?: number,
      filter?: (fieldValues: Record<string, unknown>, params: unknown) => boolean,
      params?: unknown,
    ): Array<[string, number]>;
    exportJSON(): string;
    importJSON(json: string): boolean;
    getTotalDocs(): number;
    reset(): boolean;
  }
  const bm25: () => BM25;
  export default bm25;
}

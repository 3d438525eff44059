/** The text contents of a read resource; a blob (or nothing) fails the test with the URI it came from. */
export function textResource(contents: ReadonlyArray<{ uri: string; mimeType?: string; text?: string; blob?: string }>): {
  uri: string;
  mimeType?: string;
  text: string;
} {
  const first = contents[0];
  if (first?.text === undefined) throw new Error(`expected text contents, got ${JSON.stringify(first)?.slice(0, 200)}`);
  return { uri: first.uri, mimeType: first.mimeType, text: first.text };
}

// `*` globs over tool names (`allowedTools`, a named client's `tools`, discover's filters): a leaf
// module, so that the host's policy and limits can match names without loading the MCP client.
export function globMatcher(patterns: string[]): (name: string) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (name) => regexes.some((r) => r.test(name));
}

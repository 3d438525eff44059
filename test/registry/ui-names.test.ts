// The renaming rule for a ui:// URI two backends publish (src/registry/ui-names.ts), on its own:
// who is renamed, to what, and which parts of a result and a read are rewritten and which never.
import { describe, expect, it } from 'vitest';
import { renameInContents, renameInResult, uiRenames } from '../../src/registry/ui-names.js';

describe('uiRenames', () => {
  it('renames a URI in every backend that publishes it, scheme kept, and no other URI or scheme', () => {
    const clashes: string[] = [];
    const renames = uiRenames(
      [
        { plugin: 'clock', uris: ['ui://get-time/mcp-app.html', 'ui://clock/only.html', 'docs://x'] },
        { plugin: 'again', uris: ['ui://get-time/mcp-app.html', 'docs://x'] },
        { plugin: 'solo', uris: ['ui://solo/view.html'] },
      ],
      new Set(),
      (m) => clashes.push(m),
    );
    expect(Object.fromEntries([...renames].map(([plugin, map]) => [plugin, Object.fromEntries(map)]))).toEqual({
      clock: { 'ui://get-time/mcp-app.html': 'ui://clock+get-time/mcp-app.html' },
      again: { 'ui://get-time/mcp-app.html': 'ui://again+get-time/mcp-app.html' },
    });
    expect(clashes).toEqual([]);
  });

  it('keeps a URI whose new name a backend already publishes, and says so', () => {
    const clashes: string[] = [];
    const renames = uiRenames(
      [
        { plugin: 'a', uris: ['ui://v.html'] },
        { plugin: 'b', uris: ['ui://v.html'] },
      ],
      new Set(['ui://a+v.html']),
      (m) => clashes.push(m),
    );
    expect(renames.get('a')).toBeUndefined();
    expect(renames.get('b')?.get('ui://v.html')).toBe('ui://b+v.html');
    expect(clashes).toEqual([expect.stringContaining('ui://v.html of plugin a cannot be published as ui://a+v.html')]);
  });
});

describe('rewriting references', () => {
  const renames = new Map([['ui://get-time/mcp-app.html', 'ui://clock+get-time/mcp-app.html']]);
  const uri = 'ui://get-time/mcp-app.html';

  it('rewrites a result’s _meta, resource links and embedded resources, never its text, data or structured content', () => {
    const result = {
      content: [
        { type: 'text', text: uri },
        { type: 'resource_link', uri, name: 'view' },
        { type: 'resource', resource: { uri, text: uri, _meta: { ui: { domain: uri } } } },
        { type: 'image', data: uri, mimeType: 'image/png' },
      ],
      structuredContent: { link: uri },
      _meta: { ui: { resourceUri: uri }, list: [uri, 'ui://other'] },
    };
    const before = JSON.stringify(result);
    expect(renameInResult(result, renames)).toEqual({
      content: [
        { type: 'text', text: uri },
        { type: 'resource_link', uri: 'ui://clock+get-time/mcp-app.html', name: 'view' },
        {
          type: 'resource',
          resource: { uri: 'ui://clock+get-time/mcp-app.html', text: uri, _meta: { ui: { domain: 'ui://clock+get-time/mcp-app.html' } } },
        },
        { type: 'image', data: uri, mimeType: 'image/png' },
      ],
      structuredContent: { link: uri },
      _meta: { ui: { resourceUri: 'ui://clock+get-time/mcp-app.html' }, list: ['ui://clock+get-time/mcp-app.html', 'ui://other'] },
    });
    expect(JSON.stringify(result)).toBe(before);
  });

  it('rewrites a read’s URIs and leaves its HTML byte for byte', () => {
    const html = `<a href="${uri}">é</a>`;
    expect(renameInContents([{ uri, mimeType: 'text/html;profile=mcp-app', text: html, _meta: { x: uri } }], renames)).toEqual([
      {
        uri: 'ui://clock+get-time/mcp-app.html',
        mimeType: 'text/html;profile=mcp-app',
        text: html,
        _meta: { x: 'ui://clock+get-time/mcp-app.html' },
      },
    ]);
  });
});

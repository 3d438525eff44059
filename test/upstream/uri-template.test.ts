// Which backend answers a resources/read URI (src/registry/uri-template.ts): exact URIs, then RFC
// 6570 as the SDK reads it, then — for templates of servers that match URIs themselves — the way
// UnrealMCPServer's FUMCP_UriTemplate::FindMatch does (a `{var}` may hold `/`), then the scheme.
import { describe, expect, it } from 'vitest';
import { looseMatch, MAX_URI_LENGTH, route, schemeOf } from '../../src/registry/uri-template.js';

const read = () => undefined;
const tpl = (plugin: string, uriTemplate: string, passThrough = false) => ({ plugin, def: { uriTemplate, passThrough, read } });
const res = (plugin: string, uri: string, passThrough = false) => ({ plugin, def: { uri, passThrough, read } });

describe('looseMatch', () => {
  it('lets a {var} hold slashes, as UnrealMCPServer matches unreal+t3d://{filepath}', () => {
    expect(looseMatch('unreal+t3d://{filepath}', 'unreal+t3d:///Game/Blueprints/BP_Player.BP_Player')).toEqual({
      filepath: '/Game/Blueprints/BP_Player.BP_Player',
    });
    expect(looseMatch('unreal+md://{filepath}', 'unreal+t3d:///Game/BP.BP')).toBeUndefined();
    expect(looseMatch('unreal+t3d://{filepath}', 'unreal+t3d://')).toBeUndefined();
  });

  it('ends a value at the first occurrence of the next literal, and decodes it', () => {
    expect(looseMatch('a://{x}/detail', 'a://p/q%20r/detail')).toEqual({ x: 'p/q r' });
    // FindMatch takes the first "/detail": the rest must then be consumed by the template, and is not.
    expect(looseMatch('a://{x}/detail', 'a://p/detail/more/detail')).toBeUndefined();
  });

  it('reads query expressions as name=value pairs', () => {
    expect(looseMatch('godot://search{?q,kind}', 'godot://search?q=countdown%20timer&kind=class')).toEqual({
      q: 'countdown timer',
      kind: 'class',
    });
    expect(looseMatch('godot://search{?q,kind}', 'godot://search')).toEqual({});
  });

  it('stays linear on a long URI that almost matches everywhere', () => {
    const uri = `x://${'a/'.repeat(30_000)}b`;
    expect(looseMatch('x://{a}/{b}/{c}/{d}/{e}/c', uri)).toBeUndefined();
  });
});

describe('route', () => {
  it('prefers an exact resource, then an RFC 6570 match, then a loose match of a pass-through template', async () => {
    const resources = new Map([['demo://static/a', res('demo', 'demo://static/a', true)]]);
    const templates = [tpl('godot', 'godot://class/{name}'), tpl('unreal', 'unreal+t3d://{filepath}', true)];
    expect(await route('demo://static/a', resources, templates)).toMatchObject({ kind: 'resource', target: { plugin: 'demo' } });
    expect(await route('godot://class/Node2D', resources, templates)).toMatchObject({
      kind: 'template',
      target: { plugin: 'godot' },
      variables: { name: 'Node2D' },
    });
    expect(await route('unreal+t3d:///Game/BP.BP', resources, templates)).toMatchObject({
      kind: 'template',
      target: { plugin: 'unreal' },
      variables: { filepath: '/Game/BP.BP' },
    });
    // A built-in's template is never matched loosely: its read would get a value it never expects.
    expect(await route('godot://class/a/b', resources, templates)).toBeUndefined();
  });

  it('sends a URI no template spells to the one pass-through backend that publishes its scheme', async () => {
    const resources = new Map([['demo://static/a', res('demo', 'demo://static/a', true)]]);
    const templates = [tpl('unreal', 'unreal+t3d://{filepath}', true), tpl('godot', 'godot://class/{name}')];
    expect(await route('demo://other/thing', resources, templates)).toMatchObject({ kind: 'resource', target: { plugin: 'demo' } });
    expect(await route('UNREAL+T3D:whatever', resources, templates)).toMatchObject({ kind: 'template', target: { plugin: 'unreal' } });
    // godot's scheme belongs to a built-in that does not take URIs it did not publish.
    expect(await route('godot://nothing', resources, templates)).toBeUndefined();
    // Two backends publishing one scheme: nobody can tell which one means it.
    const shared = [...templates, tpl('other', 'demo://x/{id}', true)];
    expect(await route('demo://other/thing', resources, shared)).toBeUndefined();
  });

  it('matches nothing for a URI over the length cap', async () => {
    const templates = [tpl('unreal', 'unreal+t3d://{filepath}', true)];
    expect(await route(`unreal+t3d://${'x'.repeat(MAX_URI_LENGTH)}`, new Map(), templates)).toBeUndefined();
    expect(schemeOf('no scheme here')).toBeUndefined();
  });
});

// What the active backends publish, under public names: built once per change of any list (a
// backend's notice, a reload) and then read by every listing and lookup until the next change.
import type { Logger, PromptDef, ResourceDef, ResourceListing, ResourceTemplateDef, ToolDef } from '../backend/types.js';
import { UnavailableError, isToolError } from '../backend/errors.js';
import type { BackendHost } from './backend-host.js';
import { RegistryError, UnknownNameError } from './errors.js';
import { closest } from '../kit/closest.js';
import { publicName } from './names.js';
import { promptArguments } from './prompts.js';
import type { PublishedPrompt, PublishedResource, PublishedTemplate, PublishedTool } from './published.js';
import { inputJsonSchema, toJsonSchema, type JsonSchema } from './schemas.js';
import { route, type Route } from './uri-template.js';
import { renameIn, uiRenames, viewUris, type UiRenames } from './ui-names.js';

interface Snapshot {
  tools: Map<string, PublishedTool>;
  prompts: Map<string, PublishedPrompt>;
  resources: Map<string, PublishedResource>;
  templates: PublishedTemplate[];
}

type ListingKey = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** How one kind of entry is published: its public key, and the entry built for it. */
interface Kind<D, P> {
  what: 'tool' | 'prompt' | 'resource';
  key(def: D, plugin: string, prefixed: boolean, renames: UiRenames | undefined): string;
  entry(host: BackendHost, def: D, key: string, renames: UiRenames | undefined): P;
}

const TOOL: Kind<ToolDef, PublishedTool> = {
  what: 'tool',
  key: (def, plugin, prefixed) => publicName(plugin, def.name, prefixed),
  entry: (host, def, name, renames) => {
    // A tool's JSON Schemas are built when something reads them (tools/list, a call's flags, help),
    // not for every tool at each rebuild: a one-shot call needs the one of the tool it calls.
    let input: JsonSchema | undefined;
    let output: JsonSchema | undefined;
    return {
      publicName: name,
      plugin: host.name,
      host,
      def,
      get inputSchema() {
        return (input ??= inputJsonSchema(def));
      },
      get outputSchema() {
        return def.output ? (output ??= toJsonSchema(def.output, 'output')) : undefined;
      },
      meta: renames && def._meta ? renameIn(def._meta, renames) : def._meta,
      ...(renames && { renames }),
    };
  },
};
const PROMPT: Kind<PromptDef, PublishedPrompt> = {
  what: 'prompt',
  key: (def, plugin, prefixed) => publicName(plugin, def.name, prefixed),
  entry: (host, def, name) => ({ publicName: name, plugin: host.name, host, def, arguments: promptArguments(def) }),
};
const RESOURCE: Kind<ResourceDef, PublishedResource> = {
  what: 'resource',
  key: (def, _plugin, _prefixed, renames) => renames?.get(def.uri) ?? def.uri,
  entry: (host, def, uri, renames) => ({
    plugin: host.name,
    host,
    def,
    uri,
    ...(renames && { renames, meta: def._meta && renameIn(def._meta, renames) }),
  }),
};

export class Catalog {
  private snapshot?: Promise<Snapshot>;
  /** The snapshot once built, while it is still the current one (read without waiting). */
  private built?: Snapshot;
  /** Why a backend's tools could not be listed (an upstream that is down), for `call` to report. */
  private readonly toolListErrors = new Map<string, unknown>();

  constructor(
    private readonly hosts: readonly BackendHost[],
    private readonly options: { logger: Logger; serving?: boolean },
  ) {}

  /** A list changed: the next reader builds the catalog again. */
  invalidate(): void {
    this.snapshot = undefined;
    this.built = undefined;
  }

  /** A backend left: what it failed to list goes too. */
  forget(plugin: string): void {
    this.toolListErrors.delete(plugin);
  }

  /** Builds it now; `strict`: two entries with one public name are an error naming both plugins. */
  async rebuild(strict: boolean): Promise<void> {
    const built = this.build(strict);
    built.catch(() => undefined);
    this.built = await built;
    this.snapshot = built;
  }

  private current(): Promise<Snapshot> {
    if (this.snapshot) return this.snapshot;
    const building = this.build(false);
    this.snapshot = building;
    void building.then(
      (snap) => {
        if (this.snapshot === building) this.built = snap;
      },
      () => undefined,
    );
    return building;
  }

  /** A tool of the catalog as built, without waiting; undefined when it is being built or lists no such name. */
  listedTool(name: string): PublishedTool | undefined {
    return this.built?.tools.get(name);
  }

  private async build(strict: boolean): Promise<Snapshot> {
    const snap: Snapshot = { tools: new Map(), prompts: new Map(), resources: new Map(), templates: [] };
    let renames = new Map<string, UiRenames>();
    const publish = <D, P extends { plugin: string }>(into: Map<string, P>, kind: Kind<D, P>, host: BackendHost, defs: D[]) => {
      const prefixed = host.loaded.section.prefix !== false;
      const own = renames.get(host.name);
      for (const def of defs) {
        const key = kind.key(def, host.name, prefixed, own);
        const seen = into.get(key);
        if (!seen) {
          into.set(key, kind.entry(host, def, key, own));
          continue;
        }
        const message = `${kind.what} ${key} is published by both plugin ${seen.plugin} and plugin ${host.name}`;
        if (strict) throw new RegistryError(message);
        this.options.logger.error(`${message}; keeping ${seen.plugin}'s`);
      }
    };
    const listings = await Promise.all(
      this.hosts.map(async (host) => ({
        host,
        tools: await this.listing<ToolDef>(host, 'tools'),
        prompts: await this.listing<PromptDef>(host, 'prompts'),
        resources: await this.listing<ResourceDef>(host, 'resources'),
        templates: await this.listing<ResourceTemplateDef>(host, 'resourceTemplates'),
      })),
    );
    // A URI is renamed only when two backends publish it: one backend has nothing to rename.
    if (listings.length > 1)
      renames = uiRenames(
        listings.map(({ host, tools, resources }) => ({
          plugin: host.name,
          uris: [...resources.map((r) => r.uri), ...tools.flatMap((t) => viewUris(t._meta))],
        })),
        new Set(listings.flatMap((l) => l.resources.map((r) => r.uri))),
        (message) => this.options.logger.error(message),
      );
    for (const { host, tools, prompts, resources, templates } of listings) {
      publish(snap.tools, TOOL, host, tools);
      publish(snap.prompts, PROMPT, host, prompts);
      publish(snap.resources, RESOURCE, host, resources);
      for (const def of templates) snap.templates.push({ plugin: host.name, host, def });
    }
    return snap;
  }

  /** One list of one backend; a failure is logged and lists nothing. */
  private async listing<T>(host: BackendHost, key: ListingKey): Promise<T[]> {
    try {
      const items = await host.listing<T>(key);
      if (key === 'tools') this.toolListErrors.delete(host.name);
      return items;
    } catch (error) {
      if (key === 'tools') this.toolListErrors.set(host.name, error);
      host.lastError = (error as Error).message;
      // A one-shot command reports it (as down, with this message) itself: said once, not twice.
      const log = this.options.serving ? this.options.logger.warn : this.options.logger.debug;
      log.call(this.options.logger, `${host.name}: cannot list ${key}: ${(error as Error).message}`);
      return [];
    }
  }

  async tools(plugin?: string): Promise<PublishedTool[]> {
    const all = [...(await this.current()).tools.values()];
    return plugin ? all.filter((t) => t.plugin === plugin) : all;
  }

  async tool(name: string): Promise<PublishedTool | undefined> {
    return (await this.current()).tools.get(name);
  }

  /** Tools published under another name whose backend's own name for them is `name` (what a view calls). */
  async byLocalName(name: string): Promise<PublishedTool[]> {
    return [...(await this.current()).tools.values()].filter((t) => t.def.name === name && t.publicName !== name);
  }

  /** The error for a tool name nothing publishes, with the names it is close to. */
  async unknownTool(name: string): Promise<UnknownNameError> {
    const names = [...(await this.current()).tools.keys()];
    const hint = closest(name, names);
    return new UnknownNameError('tool', name, names, hint.length ? `; did you mean ${hint.join(', ')}?` : '');
  }

  /** A tool by its plugin-local name, as `mcphost call <plugin> <tool>` takes it. */
  async localTool(plugin: string, local: string): Promise<PublishedTool> {
    const tools = await this.tools(plugin);
    const found = tools.find((t) => t.def.name === local || t.publicName === local);
    if (found) return found;
    const listError = this.toolListErrors.get(plugin);
    if (tools.length === 0 && listError !== undefined) {
      throw isToolError(listError)
        ? listError
        : new UnavailableError(`${plugin} is unavailable: ${(listError as Error)?.message ?? listError}`, { cause: listError });
    }
    const names = tools.map((t) => t.def.name);
    const hint = closest(local, names);
    throw new UnknownNameError(
      'tool',
      local,
      names,
      `${hint.length ? `; did you mean ${hint.join(', ')}?` : ''} (tools of ${plugin}: ${names.join(', ') || 'none'})`,
    );
  }

  async prompts(plugin?: string): Promise<PublishedPrompt[]> {
    const all = [...(await this.current()).prompts.values()];
    return plugin ? all.filter((p) => p.plugin === plugin) : all;
  }

  async prompt(name: string): Promise<PublishedPrompt> {
    const prompts = (await this.current()).prompts;
    const prompt = prompts.get(name);
    if (!prompt) throw new UnknownNameError('prompt', name, [...prompts.keys()]);
    return prompt;
  }

  async resources(plugin?: string): Promise<Array<ResourceListing & { plugin: string }>> {
    const snap = await this.current();
    const out: Array<ResourceListing & { plugin: string }> = [];
    for (const r of snap.resources.values()) {
      if (plugin && r.plugin !== plugin) continue;
      const { name, title, description, mimeType, _meta } = r.def;
      out.push({ uri: r.uri, name, title, description, mimeType, _meta: r.renames ? r.meta : _meta, plugin: r.plugin });
    }
    for (const t of snap.templates) {
      if ((plugin && t.plugin !== plugin) || !t.def.list) continue;
      try {
        for (const item of await t.def.list(t.host.context)) out.push({ mimeType: t.def.mimeType, ...item, plugin: t.plugin });
      } catch (error) {
        this.options.logger.warn(`${t.plugin}: cannot list ${t.def.uriTemplate}: ${(error as Error).message}`);
      }
    }
    return out;
  }

  async resourceTemplates(plugin?: string): Promise<PublishedTemplate[]> {
    const all = (await this.current()).templates;
    return plugin ? all.filter((t) => t.plugin === plugin) : all;
  }

  async template(uriTemplate: string): Promise<PublishedTemplate | undefined> {
    return (await this.current()).templates.find((x) => x.def.uriTemplate === uriTemplate);
  }

  /** The resource or template that answers `uri`; UnknownNameError when none does. */
  async route(uri: string): Promise<Route<PublishedResource, PublishedTemplate>> {
    const snap = await this.current();
    const found = await route(uri, snap.resources, snap.templates);
    if (!found) throw new UnknownNameError('resource', uri, [...snap.resources.keys(), ...snap.templates.map((t) => t.def.uriTemplate)]);
    return found;
  }
}

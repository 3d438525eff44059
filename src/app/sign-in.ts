// `mcphost auth <server>`, `auth --list`, `auth --logout <server>`: the sign-ins to the mounted HTTP
// servers that want OAuth. The server is one of the config's `servers` (or a client project file's,
// called by name); one from a file that is not trusted is refused like every command that would
// reach it, since signing in sends the user's browser where that server says.
import { closest } from '../kit/closest.js';
import { SignInFailure } from './failures.js';
import { NotTrustedError } from '../loader/errors.js';
import { signIn, type SignInResult } from '../upstream/oauth/sign-in.js';
import { oauthSettings, type OAuthSettings } from '../upstream/oauth/settings.js';
import { signInStatus, signOut, type SignInStatus, type SignOutResult } from '../upstream/oauth/status.js';
import { SignInStore } from '../upstream/oauth/store.js';
import { openConfig, type OpenOptions } from './open.js';
import { UsageError } from './usage-error.js';

interface Target {
  settings: OAuthSettings;
  store: SignInStore;
  headers?: Record<string, string>;
}

async function targets(options: OpenOptions): Promise<{ all: Map<string, Target>; resolve(name: string): Target }> {
  const { resolved } = await openConfig(options);
  const all = new Map<string, Target>();
  const notOAuth = new Map<string, string>();
  for (const [name, server] of Object.entries(resolved.config.servers)) {
    const settings = oauthSettings(name, server);
    if (settings && 'url' in server) {
      const headers = Object.fromEntries(Object.entries(server.headers ?? {}).filter(([h]) => h.toLowerCase() !== 'authorization'));
      all.set(name, { settings, store: SignInStore.for(options.env, name, settings.url), ...(Object.keys(headers).length && { headers }) });
    } else {
      notOAuth.set(
        name,
        'url' in server
          ? `servers.${name} sends its own Authorization header${server.oauth === false ? ' and has oauth: false' : ''}: mcphost signs in only where neither is set`
          : `servers.${name} is a stdio server (\`${server.command}\`): only HTTP servers sign in`,
      );
    }
  }
  return {
    all,
    resolve(name) {
      const unusable = resolved.unusable.get(name);
      if (unusable) throw unusable.error;
      const why = notOAuth.get(name);
      if (why) throw new UsageError(why);
      const target = all.get(name);
      if (!target) {
        const near = closest(name, all.keys());
        throw new UsageError(
          `no HTTP server named ${name} in ${resolved.file ?? 'the config (none found)'}${near.length ? `; did you mean ${near.join(', ')}?` : ''}` +
            (all.size ? ` (servers that sign in: ${[...all.keys()].join(', ')})` : ''),
        );
      }
      const from = resolved.imported.get(name);
      const trust = from ? from.trust : resolved.trust;
      if (trust && !trust.trusted) throw new NotTrustedError(name, from ? `${from.client}'s mcpServers.${name}` : `servers.${name}`, trust);
      return target;
    },
  };
}

export interface SignInRequest extends OpenOptions {
  server: string;
  onLink(url: URL): void | Promise<void>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function signInTo(request: SignInRequest): Promise<SignInResult & { server: string; url: string; file: string }> {
  const target = (await targets(request)).resolve(request.server);
  try {
    const result = await signIn({ ...target, onLink: request.onLink, timeoutMs: request.timeoutMs, signal: request.signal });
    return { server: request.server, url: target.settings.url, file: target.store.file, ...result };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new SignInFailure(request.server, `cannot sign in to ${request.server} (${target.settings.url}): ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export async function listSignIns(options: OpenOptions): Promise<SignInStatus[]> {
  const { all } = await targets(options);
  return [...all.values()].map((t) => signInStatus(t.settings, t.store));
}

export async function signOutOf(options: OpenOptions & { server: string }): Promise<SignOutResult & { server: string }> {
  const target = (await targets(options)).resolve(options.server);
  return { server: options.server, ...(await signOut(target.settings, target.store)) };
}

// One interactive sign-in to a mounted server (`mcphost auth <name>`): a loopback redirect listener
// on 127.0.0.1 (RFC 8252), the SDK client's first request to the server to get its 401 challenge,
// the SDK's auth() from there on (discovery from the challenge's resource_metadata or the
// well-known path, registration, PKCE, the link), the user's browser, and auth() again with the
// code that comes back. Then one more connection with the new tokens, to see the server serve them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, Client, extractWWWAuthenticateParams, StreamableHTTPClientTransport, type AuthProvider } from '@modelcontextprotocol/client';
import { SignInProvider } from './provider.js';
import type { OAuthSettings } from './settings.js';
import type { SignInStore } from './store.js';

export interface SignInOptions {
  settings: OAuthSettings;
  store: SignInStore;
  /** The entry's own headers (not credentials: those are what signing in replaces). */
  headers?: Record<string, string>;
  /** Shows the user the link to open (and opens a browser where there is one). */
  onLink(url: URL): void | Promise<void>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface SignInResult {
  /** False when the server served without asking for a sign-in. */
  needed: boolean;
  issuer?: string;
  scopes?: string;
  expiresAt?: number;
  refreshable?: boolean;
  /** Tools the server listed with the new tokens. */
  tools?: number;
}

class SignInError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInError';
  }
}

class BrowserNeeded extends Error {}

interface Callback {
  params: Promise<URLSearchParams>;
  redirectUrl: string;
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

async function listenForCallback(port: number, server: string): Promise<Callback> {
  const http: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SignInError(
          error.code === 'EADDRINUSE'
            ? `port ${port} on 127.0.0.1 is taken, so the sign-in cannot come back to mcphost: free it, or change servers.${server}.oauth.redirectPort`
            : `cannot listen on 127.0.0.1:${port} for the sign-in: ${error.message}`,
        ),
      ),
    );
    http.listen(port, '127.0.0.1', resolve);
  });
  const redirectUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/callback`;
  const params = new Promise<URLSearchParams>((resolve) => {
    http.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', redirectUrl);
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      const ok = url.searchParams.has('code');
      res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        ok
          ? page('Signed in', `mcphost is finishing the sign-in to ${server}. You can close this window.`)
          : page('Not signed in', `The sign-in to ${server} did not complete. Run mcphost auth ${server} to try again.`),
      );
      resolve(url.searchParams);
    });
  });
  return {
    params,
    redirectUrl,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function waitFor<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SignInError(`${what} did not come back within ${Math.round(ms / 1000)} s`)), ms);
    const onAbort = () => reject(new SignInError('sign-in cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const { settings, store } = options;
  const url = new URL(settings.url);
  const callback = await listenForCallback(settings.redirectPort, settings.name);
  try {
    let previous;
    try {
      previous = store.read();
    } catch {
      previous = undefined; // A file others could read is replaced by this sign-in (written 0600).
    }
    const provider = new SignInProvider(settings, store, callback.redirectUrl, previous);
    const scope = settings.scopes?.join(' ');
    let resourceMetadataUrl: URL | undefined;
    // The first leg: the server's 401 names its metadata; auth() takes it from there to the link.
    const probe: AuthProvider = {
      token: async () => undefined,
      onUnauthorized: async (ctx) => {
        const challenge = extractWWWAuthenticateParams(ctx.response);
        resourceMetadataUrl = challenge.resourceMetadataUrl;
        const result = await auth(provider, {
          serverUrl: ctx.serverUrl,
          resourceMetadataUrl,
          scope: scope ?? challenge.scope,
          fetchFn: ctx.fetchFn,
        });
        if (result !== 'AUTHORIZED') throw new BrowserNeeded();
      },
    };
    const requestInit = options.headers ? { headers: options.headers } : undefined;
    const first = new Client({ name: 'mcphost', version: '1' });
    try {
      await first.connect(new StreamableHTTPClientTransport(url, { authProvider: probe, requestInit }), { signal: options.signal });
      await first.close();
      return { needed: false };
    } catch (error) {
      if (!(error instanceof BrowserNeeded) || !provider.authorizationUrl) throw error;
    }
    await options.onLink(provider.authorizationUrl);
    const params = await waitFor(callback.params, options.timeoutMs, options.signal, 'the sign-in in the browser');
    if (params.get('state') !== provider.expectedState)
      throw new SignInError('the sign-in came back with another state than was sent: start it again');
    const code = params.get('code');
    if (!code) {
      // Only the error code, checked against its grammar: the rest of a callback is the other side's to choose.
      const error = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(params.get('error') ?? '') ? params.get('error') : 'no code';
      throw new SignInError(`the authorization server did not sign you in (${error})`);
    }
    const result = await auth(provider, {
      serverUrl: url,
      authorizationCode: code,
      iss: params.get('iss') ?? undefined,
      resourceMetadataUrl,
      scope,
    });
    if (result !== 'AUTHORIZED') throw new SignInError('the authorization server did not issue tokens');
    const record = store.read();
    const tokens = record?.tokens;
    if (!tokens) throw new SignInError('the tokens were not kept');
    // The second leg: the server serves the new token.
    const bearer: AuthProvider = { token: async () => tokens.access_token };
    const check = new Client({ name: 'mcphost', version: '1' });
    await check.connect(new StreamableHTTPClientTransport(url, { authProvider: bearer, requestInit }), { signal: options.signal });
    const tools = (await check.listTools()).tools.length;
    await check.close();
    return {
      needed: true,
      issuer: tokens.issuer,
      scopes: tokens.scope,
      expiresAt: record.expiresAt,
      refreshable: tokens.refresh_token !== undefined,
      tools,
    };
  } finally {
    await callback.close();
  }
}

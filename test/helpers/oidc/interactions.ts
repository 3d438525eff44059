// The sign-in and consent pages of the test authorization server: real HTML forms a browser fills
// in, wired to oidc-provider through its interaction API (interactionDetails, interactionFinished,
// Grant), as its own example app does (example/routes/express.js in panva/node-oidc-provider).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

export interface TestUser {
  login: string;
  password: string;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

/** Answers `/interaction/<uid>[/login|/confirm|/abort]`; true when it did. */
export async function handleInteraction(
  provider: Provider,
  users: TestUser[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://x');
  const match = /^\/interaction\/([^/]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
  if (!match) return false;
  const action = match[2];
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt, params } = details;
  if (req.method === 'GET' && !action) {
    if (prompt.name === 'login') {
      send(
        res,
        200,
        page(
          'Sign in',
          `<form method="post" action="/interaction/${uid}/login">
            <label>Login <input name="login" autocomplete="username"></label>
            <label>Password <input name="password" type="password" autocomplete="current-password"></label>
            <button type="submit">Sign in</button></form>`,
        ),
      );
      return true;
    }
    const client = await provider.Client.find(String(params.client_id));
    const scopes = String(params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    send(
      res,
      200,
      page(
        'Authorize',
        `<p>${escape(client?.clientName ?? String(params.client_id))} asks for: <span id="scopes">${escape(scopes.join(' '))}</span></p>
        <form method="post" action="/interaction/${uid}/confirm"><button type="submit">Allow</button></form>
        <form method="post" action="/interaction/${uid}/abort"><button type="submit">Deny</button></form>`,
      ),
    );
    return true;
  }
  if (req.method !== 'POST') return false;
  if (action === 'login') {
    const body = await form(req);
    const user = users.find((u) => u.login === body.get('login') && u.password === body.get('password'));
    if (!user) {
      send(res, 401, page('Sign in', '<p id="error">Wrong login or password.</p>'));
      return true;
    }
    await provider.interactionFinished(req, res, { login: { accountId: user.login } }, { mergeWithLastSubmission: false });
    return true;
  }
  if (action === 'confirm') {
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session!.accountId, clientId: String(params.client_id) });
    if (!grant) throw new Error('grant not found');
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return true;
  }
  if (action === 'abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user denied access' },
      { mergeWithLastSubmission: false },
    );
    return true;
  }
  return false;
}

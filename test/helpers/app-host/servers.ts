// The two HTTP servers a web host has, both on 127.0.0.1 with ports of their own (so two origins):
// - the host's: its page, and /mcp, forwarded to the MCP server under test as a web host's own
//   backend does (the browser talks to its host only; mcphost sends no CORS headers, and its
//   Origin guard is for pages that call it directly, so the forwarded request carries no Origin);
// - the sandbox's: the proxy page, with the Content-Security-Policy header basic-host's serve.ts
//   builds from the view's declared `_meta.ui.csp`.
// Every JSON-RPC request forwarded to /mcp is recorded, so a test can see what reached the server.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageScripts } from './bundle.js';

export interface WireRequest {
  method: string;
  /** `params.name` of a tools/call, `params.uri` of a resources/read. */
  name?: string;
  params?: Record<string, unknown>;
}

interface CspConfig {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The policy basic-host's serve.ts sets on its sandbox: nothing reaches the network but what the view declared. */
export function sandboxCsp(csp: CspConfig | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(' ');
  const connect = (csp?.connectDomains ?? []).join(' ');
  return [
    "default-src 'self' 'unsafe-inline'",
    `script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' blob: data: ${resources}`.trim(),
    `img-src 'self' data: blob: ${resources}`.trim(),
    `font-src 'self' data: blob: ${resources}`.trim(),
    `connect-src 'self' ${connect}`.trim(),
    `worker-src 'self' blob: ${resources}`.trim(),
    csp?.frameDomains?.length ? `frame-src ${csp.frameDomains.join(' ')}` : "frame-src 'none'",
    "object-src 'none'",
    csp?.baseUriDomains?.length ? `base-uri ${csp.baseUriDomains.join(' ')}` : "base-uri 'none'",
  ].join('; ');
}

const HOST_CSS =
  'body{margin:0;font:14px system-ui,sans-serif;background:#f4f4f5}' +
  '#title{padding:8px 12px;font:12px ui-monospace,monospace;color:#52525b}' +
  '#stage{padding:0 12px 12px}' +
  '#view{display:block;width:100%;height:200px;border:1px solid #d4d4d8;border-radius:8px;background:#fff}';
const SANDBOX_CSS = 'html,body{margin:0;height:100%;background:transparent}';

const page = (title: string, css: string, body: string, script: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title><style>${css}</style></head>` +
  `<body>${body}<script type="module">${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function record(body: Buffer, wire: WireRequest[]): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const m = message as { method?: unknown; params?: Record<string, unknown> };
    if (typeof m?.method !== 'string') continue;
    const name = m.params?.name ?? m.params?.uri;
    wire.push({ method: m.method, ...(typeof name === 'string' && { name }), ...(m.params && { params: m.params }) });
  }
}

function forward(target: URL, req: IncomingMessage, res: ServerResponse, wire: WireRequest[]): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    record(body, wire);
    const headers = { ...req.headers, host: target.host };
    delete headers.origin;
    delete headers.referer;
    delete headers['content-length'];
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...headers, 'content-length': String(body.length) } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`MCP server unreachable at ${target.href}: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  });
}

export interface HostServers {
  hostUrl: string;
  sandboxUrl: string;
  wire: WireRequest[];
  close(): Promise<void>;
}

export async function startHostServers(mcpUrl: string, scripts: PageScripts): Promise<HostServers> {
  const target = new URL(mcpUrl);
  const wire: WireRequest[] = [];
  const host = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://host.invalid');
    if (pathname === '/mcp') return forward(target, req, res, wire);
    if (pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(page('mcphost test host', HOST_CSS, '<div id="title"></div><div id="stage"></div>', scripts.host));
    }
    res.writeHead(404).end();
  });
  const sandbox = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    if (url.pathname !== '/sandbox.html' || req.method !== 'GET') return void res.writeHead(404).end();
    let csp: CspConfig | undefined;
    try {
      csp = url.searchParams.has('csp') ? (JSON.parse(url.searchParams.get('csp')!) as CspConfig) : undefined;
    } catch {
      csp = undefined;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': sandboxCsp(csp),
    });
    res.end(page('sandbox', SANDBOX_CSS, '', scripts.sandbox));
  });
  const [hostUrl, sandboxOrigin] = await Promise.all([listen(host), listen(sandbox)]);
  return {
    hostUrl,
    sandboxUrl: `${sandboxOrigin}/sandbox.html`,
    wire,
    close: async () => void (await Promise.all([close(host), close(sandbox)])),
  };
}

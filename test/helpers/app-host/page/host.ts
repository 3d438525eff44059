// The host page: what a web MCP Apps host (Claude, ChatGPT, VS Code's webview) does with a tool
// that has a view, following ext-apps' examples/basic-host (src/implementation.ts): the official
// SDK client talks to the MCP server, the tool's `ui://` resource is read and checked for the
// Apps MIME type, a sandbox proxy iframe on another origin receives the HTML, and an AppBridge
// hands the view its input and result and forwards the view's requests (tools/call,
// resources/read) to the server through the same client.
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import type { ConnectOptions, HostApi, ShowReport, ToolSummary, ViewCall } from './protocol.js';

const HOST_INFO = { name: 'mcphost-test-host', version: '1.0.0' };
const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

const params = new URL(location.href).searchParams;
const sandboxUrl = params.get('sandbox') ?? '';
const logLines: string[] = [];
const calls: ViewCall[] = [];
let client: Client | undefined;
let tools = new Map<string, Tool>();

function log(...parts: unknown[]): void {
  logLines.push(parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' '));
}

async function connect(options: ConnectOptions): Promise<ToolSummary[]> {
  client = new Client(HOST_INFO, {
    capabilities: options.declareApps ? { extensions: { [APPS_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {},
    ...(options.era === 'modern' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const listed = await client.listTools();
  tools = new Map(listed.tools.map((t) => [t.name, t]));
  return listed.tools.map((t) => {
    const ui = (t._meta?.ui ?? {}) as { visibility?: string[] };
    return { name: t.name, resourceUri: getToolUiResourceUri(t), ...(ui.visibility && { visibility: ui.visibility }) };
  });
}

interface UiResource {
  html: string;
  mimeType: string;
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
}

async function readUiResource(mcp: Client, uri: string): Promise<UiResource> {
  const { contents } = await mcp.readResource({ uri });
  if (contents.length !== 1) throw new Error(`${uri}: expected one content item, got ${contents.length}`);
  const [content] = contents;
  // A host renders only what declares itself an MCP App (the spec's MIME type).
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri}: MIME type ${content.mimeType}, not ${RESOURCE_MIME_TYPE}`);
  const html = 'text' in content ? content.text : new TextDecoder().decode(base64(content.blob));
  const ui = (content._meta?.ui ?? {}) as { csp?: McpUiResourceCsp; permissions?: McpUiResourcePermissions };
  return { html, mimeType: content.mimeType, csp: ui.csp, permissions: ui.permissions };
}

function base64(value: unknown): Uint8Array {
  return Uint8Array.from(atob(String(value)), (c) => c.charCodeAt(0));
}

/** Loads the sandbox proxy (another origin) into a fresh iframe; resolves when it says it is ready. */
function loadSandbox(csp: McpUiResourceCsp | undefined): Promise<HTMLIFrameElement> {
  document.getElementById('view')?.remove();
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const url = new URL(sandboxUrl);
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  const ready = new Promise<HTMLIFrameElement>((resolve) => {
    const listener = ({ source, data }: MessageEvent) => {
      if (source === iframe.contentWindow && data?.method === 'ui/notifications/sandbox-proxy-ready') {
        window.removeEventListener('message', listener);
        resolve(iframe);
      }
    };
    window.addEventListener('message', listener);
  });
  iframe.src = url.href;
  document.getElementById('stage')!.append(iframe);
  return ready;
}

function newBridge(mcp: Client, iframe: HTMLIFrameElement): AppBridge {
  const caps = mcp.getServerCapabilities();
  const bridge = new AppBridge(
    mcp,
    HOST_INFO,
    { openLinks: {}, serverTools: caps?.tools, serverResources: caps?.resources, logging: {} },
    { hostContext: { theme: 'light', platform: 'web', displayMode: 'inline', availableDisplayModes: ['inline'] } },
  );
  bridge.onmessage = async (p) => (log('ui/message', p), {});
  bridge.onopenlink = async (p) => (log('ui/open-link', p), {});
  bridge.onloggingmessage = (p) => log('view log', p);
  bridge.addEventListener('sizechange', ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  });
  return bridge;
}

/** Wraps the bridge's forwarding of the view's tools/call (set by connect) to record each call. */
function recordViewCalls(bridge: AppBridge): void {
  const forward = bridge.oncalltool;
  if (!forward) throw new Error('the bridge forwards no tools/call: the server declared no tools capability');
  bridge.oncalltool = async (p, extra) => {
    const call: ViewCall = { name: p.name, ...(p.arguments && { arguments: p.arguments }) };
    calls.push(call);
    try {
      const result = await forward(p, extra);
      call.result = result as Record<string, unknown>;
      return result;
    } catch (error) {
      call.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
}

async function show(name: string, args: Record<string, unknown>): Promise<ShowReport> {
  const mcp = client;
  if (!mcp) throw new Error('connect first');
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name} (listed: ${[...tools.keys()].join(', ')})`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${name} has no view (_meta: ${JSON.stringify(tool._meta ?? {})})`);
  document.getElementById('title')!.textContent = `${name} ${JSON.stringify(args)}`;
  // As hosts do: the call and the resource read go out together; the view waits for both.
  const resultPromise = mcp.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const resource = await readUiResource(mcp, uri);
  const iframe = await loadSandbox(resource.csp);
  const bridge = newBridge(mcp, iframe);
  const initialized = new Promise<void>((resolve) => bridge.addEventListener('initialized', () => resolve()));
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  recordViewCalls(bridge);
  await bridge.sendSandboxResourceReady({ html: resource.html, csp: resource.csp, permissions: resource.permissions });
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  const result = await resultPromise;
  await bridge.sendToolResult(result);
  const app = bridge.getAppVersion();
  return {
    tool: name,
    resourceUri: uri,
    html: resource.html,
    mimeType: resource.mimeType,
    result: result as Record<string, unknown>,
    ...(app && { app: { name: app.name, version: app.version } }),
  };
}

const api: HostApi = { connect, show, viewCalls: () => calls, logs: () => logLines };
(window as unknown as { mcpHost: HostApi }).mcpHost = api;
document.body.dataset.ready = 'true';

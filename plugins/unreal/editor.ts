// The Unreal Editor's UnrealMCPServer beyond its MCP endpoint: `GET /health`, and the older
// resource endpoints `POST /-/list-resources` and `POST /-/read-resource`. These are plain
// JSON-RPC-over-HTTP calls, not an MCP transport, so they are made with fetch here; /mcp itself is
// spoken by the SDK client (src/lib/mcp-upstream.ts).
import { UnavailableError, ToolError } from '../../src/backend/index.js';

export interface EditorResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface EditorContents {
  contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }>;
}

/** `http://127.0.0.1:30069` (a trailing `/mcp` or `/` is accepted too) → the editor's base URL. */
export function editorBase(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/mcp$/, '');
}

export function notReachable(base: string, reason?: string): string {
  return `Unreal Editor not reachable at ${base}: start the editor with the UnrealMCPServer plugin enabled${reason ? ` (${reason})` : ''}`;
}

/** GET /health: true when the editor answers 2xx. */
export async function checkHealth(base: string, timeoutMs = 3_000): Promise<{ ok: boolean; reason?: string }> {
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.text().catch(() => undefined);
    return res.ok ? { ok: true } : { ok: false, reason: `GET /health answered HTTP ${res.status}` };
  } catch (error) {
    return { ok: false, reason: fetchReason(error) };
  }
}

function fetchReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if ((error as Error)?.name === 'TimeoutError') return 'no answer in time';
  return cause?.code ?? (error as Error)?.message ?? String(error);
}

let nextId = 1;

/** One JSON-RPC request to a `/-/` endpoint. */
async function post<T>(base: string, path: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      signal: signal ?? AbortSignal.timeout(30_000),
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new UnavailableError(notReachable(base, fetchReason(error)), { cause: error });
  }
  const text = await res.text();
  if (!res.ok)
    throw new ToolError(`Unreal Editor: POST ${path} answered HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`, {
      code: 'EDITOR_HTTP',
    });
  let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ToolError(`Unreal Editor: POST ${path} did not answer JSON`, { code: 'EDITOR_BAD_RESPONSE' });
  }
  if (body.error) throw new ToolError(`Unreal Editor: ${body.error.message}`, { code: body.error.code, data: body.error.data });
  return body.result as T;
}

export async function listResourcesFallback(base: string): Promise<EditorResource[]> {
  return (await post<{ resources?: EditorResource[] }>(base, '/-/list-resources', 'resources/list', {})).resources ?? [];
}

export async function readResourceFallback(base: string, uri: string, signal?: AbortSignal): Promise<EditorContents> {
  return post<EditorContents>(base, '/-/read-resource', 'resources/read', { uri }, signal);
}

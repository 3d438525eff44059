// The Unreal Editor's UnrealMCPServer beyond its MCP endpoint: `GET /health` where the editor
// serves one (the seed's plugin does; the released plugin binds only `POST /mcp` and answers 404
// to everything else), and the seed's older resource endpoints `POST /-/list-resources` and
// `POST /-/read-resource`. These are plain HTTP calls, not an MCP transport, so they are made with
// fetch here; /mcp itself is spoken by the SDK client (src/kit/mcp/client.ts).
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

export function notRunning(base: string, reason?: string): string {
  return `Unreal Editor not running at ${base}: start it with the UnrealMCPServer plugin enabled${reason ? ` (${reason})` : ''}`;
}

/** "Unreal Editor at URL answered HTTP 500: …": the editor runs, and said no. */
export function answered(base: string, what: string): string {
  return `Unreal Editor at ${base} answered ${what}`;
}

/**
 * The message for an editor the client could not connect to, from the client's reason: an HTTP
 * answer or a handshake that timed out means the editor runs (and failed, or is busy); anything
 * else (refused, unknown host) that it does not.
 */
export function describeDown(base: string, reason: string): string {
  if (reason === 'mcphost is shutting down') return reason;
  const http = / answered (HTTP \d+.*)$/s.exec(reason);
  if (http) return answered(base, http[1]);
  const late = / did not answer initialize within (\d+) ms/.exec(reason);
  if (late) return busy(base, 'initialize', Number(late[1]));
  return notRunning(base, reason.replace(/ at https?:\/\/\S+/, '').replace(' (is it running?)', ''));
}

export type HealthEndpoint =
  | { kind: 'ok' }
  | { kind: 'absent'; status: number }
  | { kind: 'error'; what: string }
  | { kind: 'busy' }
  | { kind: 'down'; reason: string };

/**
 * GET /health: served and 2xx, not served (404/405: the released plugin), another status, no answer
 * in time (the editor accepted the connection: it is busy), or nothing listening.
 */
export async function checkHealth(base: string, timeoutMs = 3_000): Promise<HealthEndpoint> {
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const text = (await res.text().catch(() => '')).trim().slice(0, 200);
    if (res.ok) return { kind: 'ok' };
    if (res.status === 404 || res.status === 405) return { kind: 'absent', status: res.status };
    return { kind: 'error', what: `GET /health with HTTP ${res.status}${text ? `: ${text}` : ''}` };
  } catch (error) {
    if ((error as Error)?.name === 'TimeoutError') return { kind: 'busy' };
    return { kind: 'down', reason: fetchReason(error) };
  }
}

/** The editor accepted the connection and said nothing: its requests wait for the game thread. */
export function busy(base: string, what: string, ms: number): string {
  return `Unreal Editor at ${base} did not answer ${what} within ${ms} ms: is it busy (a modal dialog, a compile, a breakpoint)?`;
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
    throw new UnavailableError(notRunning(base, fetchReason(error)), { cause: error });
  }
  const text = await res.text();
  if (!res.ok)
    throw new ToolError(answered(base, `POST ${path} with HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`), {
      code: 'HTTP_ERROR',
      data: { status: res.status },
    });
  let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ToolError(`Unreal Editor: POST ${path} did not answer JSON`, { code: 'BAD_RESPONSE' });
  }
  if (body.error)
    throw new ToolError(answered(base, `error ${body.error.code}: ${body.error.message}`), {
      code: body.error.code,
      data: body.error.data,
    });
  return body.result as T;
}

export async function listResourcesFallback(base: string): Promise<EditorResource[]> {
  return (await post<{ resources?: EditorResource[] }>(base, '/-/list-resources', 'resources/list', {})).resources ?? [];
}

export async function readResourceFallback(base: string, uri: string, signal?: AbortSignal): Promise<EditorContents> {
  return post<EditorContents>(base, '/-/read-resource', 'resources/read', { uri }, signal);
}

/**
 * The released plugin writes every field of its structs, empty ones too: `{uri, text, blob: "",
 * mimeType}`. A contents entry carries text or a blob, so the empty one is dropped.
 */
export function tidyContents<T extends { contents: Array<Record<string, unknown>> }>(result: T): T {
  return {
    ...result,
    contents: result.contents.map((c) => {
      const out = { ...c };
      if (out.blob === '' && typeof out.text === 'string') delete out.blob;
      else if (out.text === '' && typeof out.blob === 'string' && out.blob !== '') delete out.text;
      if (out.mimeType === '') delete out.mimeType;
      return out;
    }),
  };
}

// Why an upstream server could not be reached, in one line that names the command or URL; and
// which failures mean a request never reached a server that processed it.
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import type { UpstreamTarget } from './types.js';
import { SpawnError } from './stdio-child.js';

/** A request that never reached a server that processed it, so resending it is safe. */
export function notProcessed(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404;
  return errnoOf(error) === 'ECONNREFUSED';
}

function errnoOf(error: unknown): string | undefined {
  let cur = error as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; cur && i < 5; i++, cur = cur.cause as typeof cur) {
    if (typeof cur.code === 'string' && /^E[A-Z]+$/.test(cur.code)) return cur.code;
  }
  return undefined;
}

/** `HTTP 500 Internal Server Error: <the start of the body>`. */
export function httpAnswer(error: SdkHttpError): string {
  const body = (error.data as unknown as { text?: unknown } | undefined)?.text;
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return `HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''}${text ? `: ${text}` : ''}`;
}

/** One line saying why the server could not be reached, naming the command or URL. */
export function describeError(error: unknown, target: UpstreamTarget): string {
  if (error instanceof SpawnError) {
    const hint =
      error.code === 'ENOENT'
        ? 'command not found (ENOENT): check the command and PATH'
        : error.code === 'EACCES'
          ? 'permission denied (EACCES): make the file executable'
          : error.message;
    return `cannot start \`${error.command}\`: ${hint}`;
  }
  const where = target.kind === 'http' ? target.url : `\`${target.command}\``;
  // Still 401 after the credentials were renewed: the sign-in itself is what needs doing.
  if (error instanceof SdkHttpError && error.code === SdkErrorCode.ClientHttpAuthentication && target.kind === 'http' && target.auth)
    return target.auth.refused();
  if (error instanceof SdkHttpError) return `${where} answered ${httpAnswer(error)}`;
  if (error instanceof SdkError && error.code === 'REQUEST_TIMEOUT') return `${where} did not answer initialize in time`;
  const code = errnoOf(error);
  if (code === 'ECONNREFUSED') return `connection refused at ${where} (is it running?)`;
  if (code === 'ENOTFOUND') return `host not found: ${where}`;
  if (code) return `${where}: ${code}`;
  return (error as Error)?.message ?? String(error);
}

// Guards that run before any MCP work on an HTTP request: Host and Origin (DNS-rebinding
// protection), the bearer token, and the body-size limit.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export interface GuardSettings {
  bindHost: string;
  token?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
}

export type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface Guards {
  /** Checks Host and Origin (every path); answers 403 when they fail. */
  origin: Guard;
  /** Checks the bearer token (the MCP endpoint); answers 401 when it fails. */
  token: Guard;
  /** How a request stands with the token, without answering: no token set, or it holds the right one or not. */
  holdsToken(req: IncomingMessage): 'no-token-set' | boolean;
}

export function createGuards(settings: GuardSettings): Guards {
  // Bound to loopback, only loopback names may appear in Host; bound elsewhere, the token is what
  // protects, and Host is checked only against names the user listed.
  const hosts = isLoopback(settings.bindHost) ? [...LOOPBACK_HOSTS, ...settings.allowedHosts] : settings.allowedHosts;
  const checkHost = hosts.length > 0 ? hostHeaderValidation(hosts) : () => true;
  const checkOrigin = originValidation([...LOOPBACK_HOSTS, ...settings.allowedOrigins.map(originHostname)]);
  const expected = settings.token ? Buffer.from(`Bearer ${settings.token}`) : undefined;
  const origin: Guard = (req, res) => checkHost(req, res) && checkOrigin(req, res);
  const holdsToken = (req: IncomingMessage): 'no-token-set' | boolean => {
    if (!expected) return 'no-token-set';
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const token: Guard = (req, res) => {
    if (expected) {
      if (holdsToken(req) !== true) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: 'Unauthorized: send Authorization: Bearer <token>' },
            id: null,
          }),
        );
        return false;
      }
    }
    return true;
  };
  return { origin, token, holdsToken };
}

/** `https://app.example:8080` → `app.example`; a bare hostname stays as it is. */
function originHostname(origin: string): string {
  try {
    return new URL(origin).host.replace(/:\d+$/, '');
  } catch {
    return origin;
  }
}

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The request body as text, refused past `limit`. A body too large is still read to its end (and
 * thrown away, up to four times the limit) before the refusal: a client cut off in mid-upload sees
 * a broken pipe instead of the 413.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  const discardUpTo = 4 * limit;
  if (Number.isFinite(declared) && declared > discardUpTo) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > discardUpTo) {
        req.destroy();
        reject(new BodyTooLargeError(limit));
      }
    });
    req.once('end', () => (size > limit ? reject(new BodyTooLargeError(limit)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.once('error', reject);
  });
}

// Guards that run before any MCP work on an HTTP request: Host and Origin (DNS-rebinding
// protection), the bearer token, and the body-size limit.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import { hostHeaderValidation } from '@modelcontextprotocol/node';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

export interface GuardSettings {
  bindHost: string;
  /** The port the server listens on (known once it listens: port 0 picks one). */
  port: () => number;
  token?: string;
  allowedHosts: string[];
  allowedOrigins: string[];
}

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface Guards {
  /** Checks Host only (DNS-rebinding protection for what any origin may read); answers 403 when it fails. */
  host: Guard;
  /** Checks Host and Origin (every path); answers 403 when they fail. */
  origin: Guard;
  /** Checks the bearer token (the MCP endpoint); answers 401 when it fails. */
  token: Guard;
  /** How a request stands with the token, without answering: no token set, or it holds the right one or not. */
  holdsToken(req: IncomingMessage): 'no-token-set' | boolean;
}

/** `[::1]`-style names for the Host check (what URL.hostname gives for an IPv6 address). */
function hostName(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/**
 * The names a request's Host may carry: bound to loopback, the loopback names; bound elsewhere, the
 * names of this machine too (its host name, the bound address, or every interface's address for a
 * wildcard bind). Never "any": a token does not stop a browser page that DNS-rebinds a name of its
 * own to this machine from sending a token it learned, and the check costs a legitimate client nothing.
 */
function allowedHostNames(settings: GuardSettings): string[] {
  const names = [...LOOPBACK_HOSTS, ...settings.allowedHosts];
  if (isLoopback(settings.bindHost)) return names;
  names.push(os.hostname().toLowerCase());
  if (isWildcard(settings.bindHost)) {
    for (const list of Object.values(os.networkInterfaces())) {
      for (const a of list ?? []) if (!a.address.includes('%')) names.push(hostName(a.address));
    }
  } else {
    names.push(hostName(settings.bindHost.toLowerCase()));
  }
  return [...new Set(names)];
}

/**
 * The origins a browser page may call from: the server's own (loopback names with its port, and
 * the bound address with its port), and those listed in `http.allowedOrigins`, compared exactly
 * (scheme, host and port): a page of another local server (http://localhost:5173) is foreign.
 */
function allowedOrigins(settings: GuardSettings): Set<string> {
  const port = settings.port();
  const own = [...LOOPBACK_HOSTS, ...(isLoopback(settings.bindHost) || isWildcard(settings.bindHost) ? [] : [hostName(settings.bindHost)])];
  const origins = new Set(own.map((h) => new URL(`http://${h}:${port}`).origin));
  for (const o of settings.allowedOrigins) origins.add(new URL(o).origin);
  return origins;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): false {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  return false;
}

/** SHA-256 of a credential: equal-length digests, so timingSafeEqual compares in constant time whatever was sent. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The credential of `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 9110 §11.1), else undefined. */
export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S.*)$/i.exec(header ?? '');
  return match?.[1];
}

export function createGuards(settings: GuardSettings): Guards {
  const checkHost = hostHeaderValidation(allowedHostNames(settings));
  let origins: Set<string> | undefined;
  const checkOrigin: Guard = (req, res) => {
    const given = req.headers.origin;
    // Non-browser clients send no Origin; every browser request carries one.
    if (given === undefined || given === '') return true;
    origins ??= allowedOrigins(settings);
    let origin: string | undefined;
    try {
      origin = new URL(given).origin;
    } catch {
      origin = undefined;
    }
    if (origin && origin !== 'null' && origins.has(origin)) return true;
    return refuse(res, 403, `Invalid Origin: ${given} (allow a browser origin with http.allowedOrigins, e.g. ${[...origins][0]})`);
  };
  const expected = settings.token === undefined ? undefined : digest(settings.token);
  const origin: Guard = (req, res) => checkHost(req, res) && checkOrigin(req, res);
  const holdsToken = (req: IncomingMessage): 'no-token-set' | boolean => {
    if (!expected) return 'no-token-set';
    const given = bearer(req.headers.authorization);
    // Compared digest to digest, always: neither the length nor the first differing byte shows in the time taken.
    return timingSafeEqual(digest(given ?? ''), expected) && given !== undefined;
  };
  const token: Guard = (req, res) => {
    if (expected && holdsToken(req) !== true) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized: send Authorization: Bearer <token>' }, id: null }),
      );
      return false;
    }
    return true;
  };
  return { host: checkHost, origin, token, holdsToken };
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

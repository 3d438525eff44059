// A registry served over Streamable HTTP on 127.0.0.1, an ephemeral port, with the settings the
// server tests share (no browser origins, 1 MiB bodies, one-minute idle sessions, at most 100); a
// test passes only what it is about (its clients, a token, a smaller session cap).
import { serveOnHttp, type HttpServing, type HttpSettings } from '../../src/server/http.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import type { Registry } from '../../src/registry/registry.js';

export function serveOnLoopback(registry: Registry, settings: Partial<HttpSettings> = {}): Promise<HttpServing> {
  return serveOnHttp(
    registry,
    { name: 'mcphost', version: '9.9.9' },
    {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [],
      allowedHosts: [],
      maxBodyBytes: 1 << 20,
      sessionIdleMs: 60_000,
      maxSessions: 100,
      ...settings,
    },
    silentLogger,
  );
}

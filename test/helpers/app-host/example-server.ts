// The official MCP Apps example server (@modelcontextprotocol/server-basic-vanillajs, a
// devDependency: its `get-time` tool and `ui://get-time/mcp-app.html` view), served straight over
// Streamable HTTP as its own main.ts does (a fresh server and stateless transport per request),
// but on 127.0.0.1 port 0 instead of 0.0.0.0:3001. The reference the harness and the relay are
// checked against: what a host sees from the server itself, without mcphost in between.
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { createServer } from '@modelcontextprotocol/server-basic-vanillajs';

export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

export async function startExampleAppServer(): Promise<ExampleServer> {
  const http = createHttpServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return void res.writeHead(404).end();
    const server = createServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    void server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(() => resolve()));
    },
  };
}

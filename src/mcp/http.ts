import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { usageError } from '../core/errors.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from './http/handler.js';
import { isLoopbackHost, urlHost } from './http/host.js';
import { RPC_ERROR, sendRpcError } from './http/respond.js';

export const MCP_PATH = '/mcp';
export const DEFAULT_MCP_PORT = 8765;

export interface McpHttpOptions extends McpHttpHandlerOptions {
  /** Loopback by default; anything else also needs `allowRemote` (and TLS in front: docs/mcp-http.md). */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The explicit consent to listen on a non-loopback address. */
  allowRemote?: boolean;
}

export interface RunningMcpHttp {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Whether a request's path is the MCP endpoint (what a composition routes to the handler). */
export const isMcpPath = (url: string | undefined): boolean =>
  new URL(url ?? '/', 'http://localhost').pathname === MCP_PATH;

/**
 * A listener of its own for the MCP handler (http/handler.ts), for `bankops serve` and tests:
 * `/mcp`, and 404 for anything else.
 */
export async function startMcpHttp(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const { log } = options.runtime;
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw usageError(
      `refusing to listen on ${host}: MCP over HTTP listens on loopback unless told otherwise explicitly (docs/mcp-http.md)`,
    );
  }
  const mcp = createMcpHttpHandler(options);
  const server: Server = createServer((req, res) => {
    if (isMcpPath(req.url)) void mcp.handle(req, res);
    else sendRpcError(res, 404, RPC_ERROR.server, `Not found: the MCP endpoint is ${MCP_PATH}`);
  });
  // SSE streams stay open for a long time; Node's default request timeout would cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_MCP_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  if (!isLoopbackHost(host)) {
    log.warn('mcp http: listening on a non-loopback address; terminate TLS in a reverse proxy in front', {
      host,
      port,
    });
  }
  return {
    url: `http://${urlHost(host)}:${port}${MCP_PATH}`,
    port,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

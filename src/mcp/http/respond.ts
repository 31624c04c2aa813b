import type { ServerResponse } from 'node:http';

/** JSON-RPC error codes the MCP transport uses for HTTP-level refusals. */
export const RPC_ERROR = {
  /** Generic server error, as the SDK's transport answers refused requests. */
  server: -32000,
  /** "Session not found", as the SDK's transport answers unknown session ids. */
  sessionNotFound: -32001,
  invalidRequest: -32600,
  parse: -32700,
} as const;

/**
 * Answers with a JSON-RPC error body and no id, as the SDK's transport does for refused requests,
 * so an MCP client shows the message. Messages are fixed strings: nothing the caller sent is echoed.
 */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/** Where `bankops serve` mounts MCP over Streamable HTTP (the handler: http/handler.ts). */
export const MCP_PATH = '/mcp';
export const DEFAULT_MCP_PORT = 8765;

import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';

/** The two protocol eras a server must serve: 2026-07-28 and the 2025 one (initialize). */
export type Era = 'modern' | 'legacy';
export const ERAS: readonly Era[] = ['modern', 'legacy'];

/** The revision a modern client pins. */
export const MODERN = '2026-07-28';

/**
 * A real SDK client (v2) connected to `createMcpServer(options)`, declaring `capabilities`
 * (elicitation, say) as a desktop assistant would. `modern`: pinned to 2026-07-28, through the
 * SDK's HTTP entry (`createMcpHandler`, a server per request) driven in process by its `fetch`;
 * `legacy`: the 2025 handshake over linked in-memory transports (one server for the connection).
 */
export async function connectInMemory(
  options: McpServerOptions,
  capabilities: ClientCapabilities = {},
  era: Era = 'modern',
): Promise<Client> {
  if (era === 'legacy') {
    const server = createMcpServer(options);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bankops-test', version: '1.0.0' }, { capabilities });
    await server.connect(serverSide);
    await client.connect(clientSide);
    return client;
  }
  const handler = createMcpHandler(() => createMcpServer(options), { legacy: 'reject' });
  const transport = new StreamableHTTPClientTransport(new URL('http://bankops.test/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new Client(
    { name: 'bankops-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(transport);
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await handler.close();
  };
  return client;
}

/**
 * One 2026-07-28 tools/call sent by hand to the SDK's HTTP entry serving `createMcpServer(options)`,
 * as any client could send it (answers of its choosing included); the JSON-RPC `result`.
 */
export async function rawModernCall(
  options: McpServerOptions,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities = { elicitation: {} },
): Promise<Record<string, unknown>> {
  const handler = createMcpHandler(() => createMcpServer(options), { legacy: 'reject' });
  try {
    const response = await handler.fetch(
      new Request('http://bankops.test/mcp', {
        method: 'POST',
        headers: {
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
          'Mcp-Protocol-Version': MODERN,
          'Mcp-Method': 'tools/call',
          'Mcp-Name': String(params.name),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': capabilities,
            },
          },
        }),
      }),
    );
    const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
    if (body.result === undefined) throw new Error(`no result: ${JSON.stringify(body)}`);
    return body.result;
  } finally {
    await handler.close();
  }
}

/**
 * Draft 2020-12 (MCP's default dialect), strict: an unknown keyword or a malformed schema throws
 * (`type: ["string", "null"]` is plain JSON Schema, hence `allowUnionTypes`).
 * Formats are not checked here (`ajv-formats` is the SDK's dependency, not ours); the SDK's client
 * checks them when it validates `structuredContent`.
 */
export const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  allErrors: true,
  validateFormats: false,
});

/** The text of a tool result's first content block. */
export function textOf(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content;
  const first = content?.[0];
  return first?.type === 'text' ? first.text : '';
}

export const PAYOUT = {
  beneficiaryId: 'ben_de_swift_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationAssetCode: 'EUR',
  destinationRail: 'SWIFT',
  amount: 1000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
};

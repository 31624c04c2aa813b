import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';

/**
 * A real SDK client connected to `createMcpServer(options)` through linked in-memory transports,
 * declaring `capabilities` (elicitation, say) as a desktop assistant would.
 */
export async function connectInMemory(
  options: McpServerOptions,
  capabilities: ClientCapabilities = {},
): Promise<Client> {
  const server = createMcpServer(options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bankops-test', version: '1.0.0' }, { capabilities });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
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

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WriteToConfirm } from '../core/executor.js';
import type { ToolExtra } from './progress.js';

/** How long a person has to answer before the write is dropped as not confirmed. */
export const CONFIRM_TIMEOUT_MS = 5 * 60_000;

/** The longest value shown in a confirmation; a longer one is cut with an ellipsis. */
const MAX_VALUE_LENGTH = 200;

/**
 * The confirmation of a write the policy allows outright, asked of the person through MCP
 * elicitation, when the client can show a form; undefined when it cannot (the write then runs as
 * the policy says). The question travels on the tool call's own stream (`relatedRequestId`), so a
 * Streamable HTTP client sees it without a standalone SSE stream.
 */
export function confirmerFor(
  server: McpServer,
  extra: ToolExtra,
): ((write: WriteToConfirm) => Promise<boolean>) | undefined {
  if (server.server.getClientCapabilities()?.elicitation?.form === undefined) return undefined;
  return async (write) => {
    const answer = await server.server.elicitInput(
      {
        mode: 'form',
        message: confirmationText(write),
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: {
              type: 'boolean',
              title: 'Make this change',
              description: `Yes runs ${write.tool.name} now; no leaves everything as it is.`,
              default: false,
            },
          },
          required: ['confirm'],
        },
      },
      { relatedRequestId: extra.requestId, signal: extra.signal, timeout: CONFIRM_TIMEOUT_MS },
    );
    return answer.action === 'accept' && answer.content?.confirm === true;
  };
}

/** What the person reads: the tool, every input field (secrets already redacted), and if it is final. */
export function confirmationText({ tool, input }: WriteToConfirm): string {
  const fields = Object.entries(input).map(([name, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const shown = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
    return `- ${name}: ${shown}`;
  });
  const final = tool.hints.destructive ? ' It cannot be undone.' : '';
  return `The assistant wants to run "${tool.title}" (${tool.name}) with:\n${fields.join('\n')}\nThis changes data at the service.${final} Confirm to go ahead.`;
}

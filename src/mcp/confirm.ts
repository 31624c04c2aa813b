import { createHash } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { canonicalJson } from '../core/canonical-json.js';
import { ConfirmationDeferred, type WriteToConfirm } from '../core/confirmation.js';

/**
 * How long a person has to answer a 2025-era client's form before the write is dropped as not
 * confirmed (the SDK's legacy shim pushes the question as `elicitation/create`).
 */
export const CONFIRM_TIMEOUT_MS = 5 * 60_000;

/** The key of the one question in `inputRequests`, and of its answer in `inputResponses`. */
const CONFIRM_KEY = 'confirm';

/** The longest value shown in a confirmation; a longer one is cut with an ellipsis. */
const MAX_VALUE_LENGTH = 200;

/**
 * Whether the client behind this request can show a form: declared on the request itself (protocol
 * 2026-07-28) or at `initialize` (2025 era). `elicitation: {}` is the 2025-06-18 form of "form".
 */
export function canShowForm(server: McpServer, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ??
    // Deprecated for modern requests only: it still answers for 2025-era connections.
    server.server.getClientCapabilities();
  const elicitation = declared?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/**
 * The executor's `confirm` for one round of a tools/call, in MCP's multi round-trip: the first
 * round defers (the handler answers with the question, `confirmationRequest`); the client asks the
 * person and calls again with the answer. A yes counts only for the input the person was shown
 * (the digest the question carried in `requestState`): a retry with another input is asked again.
 * 2025-era clients get the same question as `elicitation/create` from the SDK's legacy shim.
 */
export function confirmationFor(ctx: ServerContext): (write: WriteToConfirm) => Promise<boolean> {
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
  if (answer.kind !== 'elicit') {
    return (write) => Promise.reject(new ConfirmationDeferred(write));
  }
  const shown = ctx.mcpReq.requestState();
  return async (write) => {
    if (answer.action !== 'accept') return false;
    if (shown !== digestOf(write)) throw new ConfirmationDeferred(write);
    return answer.content?.[CONFIRM_KEY] === true;
  };
}

/** The question for the person: the write and its input (secrets redacted), yes or no, nothing else. */
export function confirmationRequest(write: WriteToConfirm): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [CONFIRM_KEY]: inputRequired.elicit({
        mode: 'form',
        message: confirmationText(write),
        requestedSchema: {
          type: 'object',
          properties: {
            [CONFIRM_KEY]: {
              type: 'boolean',
              title: 'Make this change',
              description: `Yes runs ${write.tool.name} now; no leaves everything as it is.`,
              default: false,
            },
          },
          required: [CONFIRM_KEY],
        },
      }),
    },
    // Not a credential (a client may answer the form itself): it ties the answer to what was shown.
    requestState: digestOf(write),
  });
}

/** What the person was shown: the tool and its redacted input. */
function digestOf(write: WriteToConfirm): string {
  const shown = canonicalJson({ tool: write.tool.name, input: write.input });
  return `confirm-v1.${createHash('sha256').update(shown).digest('base64url')}`;
}

/** What the person reads: the tool, every input field (secrets already redacted), and if it is final. */
function confirmationText({ tool, input }: WriteToConfirm): string {
  const fields = Object.entries(input).map(([name, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const shown = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
    return `- ${name}: ${shown}`;
  });
  const final = tool.hints.destructive ? ' It cannot be undone.' : '';
  return `The assistant wants to run "${tool.title}" (${tool.name}) with:\n${fields.join('\n')}\nThis changes data (at the service, or bankops's own records).${final} Confirm to go ahead.`;
}

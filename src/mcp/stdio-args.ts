import { parseArgs } from 'node:util';
import { usageError } from '../core/errors.js';
import { optional } from '../core/optional.js';
import { TOOLSETS, type Toolset } from '../core/toolset.js';

// Kept apart from stdio.ts so `bankops help mcp` and argument errors need no MCP SDK loaded.

export const STDIO_HELP = `Usage: bankops mcp [--toolsets <a,b>] [--read-only] [--no-confirm] [--secret-inputs]
       node dist/mcp-bundle/bankops-mcp.mjs [the same options]

Serves the tools to an AI assistant over MCP on stdio (stdin/stdout; logs go to stderr). The
assistant acts as the policy's stdio actor (match: { mcpStdio: true }): by default viewer and
operator, never approver, so payouts and other approvals wait for a person (docs/mcp.md).

Options:
  --toolsets <list>  only these toolsets (${TOOLSETS.join(', ')});
                     get_approval and list_approvals are always offered
  --read-only        only tools that change nothing
  --no-confirm       run writes the policy allows without asking the user to confirm them (by
                     default an assistant that can show a form asks the user first)
  --secret-inputs    also offer the tools whose input is a PIN, an activation or assignment code
                     or a full card number (reset_pin_a, activate_card_a, assign_card_a,
                     assign_card_b): off by default, since what an assistant sends passes through
                     its model provider

The configuration is the CLI's (BANKOPS_DB, BANKOPS_POLICY, BANKOPS_BASE_URL, …); with no
BANKOPS_BASE_URL the embedded sandbox runs, started at the first tool call.
`;

export interface StdioOptions {
  toolsets?: Toolset[];
  readOnly?: boolean;
  confirmWrites?: boolean;
  secretInputs?: boolean;
}

/** The options of `bankops mcp` and of `node dist/app/mcp-stdio.js`; throws with a message naming the problem. */
export function parseStdioArgs(args: readonly string[]): StdioOptions & { help: boolean } {
  const { values } = parseArgs({
    args: [...args],
    options: {
      toolsets: { type: 'string' },
      'read-only': { type: 'boolean' },
      'no-confirm': { type: 'boolean' },
      'secret-inputs': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const toolsets = values.toolsets
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (toolsets?.length === 0) throw usageError(`name at least one toolset: ${TOOLSETS.join(', ')}`);
  const unknown = toolsets?.filter((name) => !(TOOLSETS as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0)
    throw usageError(`unknown toolset ${unknown.join(', ')}; toolsets are ${TOOLSETS.join(', ')}`);
  return {
    help: values.help === true,
    ...optional('toolsets', toolsets as Toolset[] | undefined),
    ...(values['read-only'] ? { readOnly: true } : {}),
    ...(values['no-confirm'] ? { confirmWrites: false } : {}),
    ...(values['secret-inputs'] ? { secretInputs: true } : {}),
  };
}

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { Executor, WriteToConfirm } from '../core/executor.js';
import type { Actor } from '../core/policy/types.js';
import type { Registry } from '../core/registry.js';
import type { ExecuteResult } from '../core/results.js';
import type { AnyTool, Toolset } from '../core/tool.js';
import { packageVersion } from '../core/version.js';
import { confirmerFor } from './confirm.js';
import { progressFor } from './progress.js';
import { registerResources } from './resources.js';
import { errorResult, toCallToolResult } from './results.js';
import { IDEMPOTENCY_ARGUMENT, mcpInputSchema, mcpSchemas } from './schemas.js';

export interface McpServerOptions {
  registry: Registry;
  /** The executor, built lazily: tools/list must answer without it (fast start-up). */
  getExecutor: () => Promise<Executor>;
  /** Who the assistant is, for the policy and the audit log. */
  actor: Actor;
  toolsets?: readonly Toolset[];
  readOnly?: boolean;
  /**
   * Ask the person to confirm a write the policy allows outright, when the client offers
   * elicitation (default true). Writes that need approval are confirmed by their approvers instead.
   */
  confirmWrites?: boolean;
}

/**
 * Tools an assistant needs to follow a `pending_approval` to its end: offered whatever the toolsets,
 * since a write without them leaves the assistant with an approval id and nothing to do with it.
 */
export const ALWAYS_OFFERED: readonly string[] = ['get_approval', 'list_approvals'];

/** The registry's tools this server offers: the chosen toolsets, reads only in read-only mode. */
export function offeredTools(
  registry: Registry,
  options: Pick<McpServerOptions, 'toolsets' | 'readOnly'>,
): AnyTool[] {
  const toolsets = options.toolsets;
  return registry
    .list(options.readOnly ? { readOnly: true } : {})
    .filter(
      (tool) =>
        toolsets === undefined || toolsets.includes(tool.toolset) || ALWAYS_OFFERED.includes(tool.name),
    );
}

const INSTRUCTIONS = `bankops operates a banking, card-issuing and notification service.
Amounts are decimal numbers in currency units (1250.5, not minor units); company, program and agent codes default to the configuration.
Reads run at once. Other writes run at once too, after the user confirms them if your client can ask. Some writes (payouts, conversions, wallet transfers, permanent card blocks, deleting subscriptions) need a person's approval: they return status "pending_approval" with an approvalId, and nothing has happened yet. Tell the user, then follow it with get_approval. You cannot approve.
The resource bankops://policy says which tools you may call and which wait for approval.`;

function outcomeWords(result: ExecuteResult): string {
  switch (result.status) {
    case 'ok':
      return 'done';
    case 'pending_approval':
      return `waiting for approval ${result.approvalId}`;
    case 'denied':
      return 'denied by the policy';
    case 'declined':
      return 'not confirmed, not run';
    case 'invalid':
      return 'invalid input';
    case 'failed':
      return 'failed';
  }
}

/**
 * An MCP server offering the registry's tools (DESIGN decision 9). Every call goes to the executor
 * as `{tool, input, actor}`: validation, policy, approvals and audit happen there, never here.
 * Approving is not a tool, so an assistant can never approve its own request.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { getExecutor, actor } = options;
  const server = new McpServer(
    { name: 'bankops', title: 'bankops', version: packageVersion() },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const tools = offeredTools(options.registry, options);
  const listed: ListToolsResult['tools'] = [];

  for (const tool of tools) {
    const schemas = mcpSchemas(tool);
    const annotations = {
      title: tool.title,
      readOnlyHint: tool.hints.readOnly,
      destructiveHint: tool.hints.destructive,
      idempotentHint: tool.hints.idempotent,
      openWorldHint: tool.hints.openWorld,
    };
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: mcpInputSchema(tool),
        outputSchema: schemas.output,
        annotations,
      },
      async (args, extra) => {
        // Only writes take the key; on a read it stays an argument the executor refuses.
        const { [IDEMPOTENCY_ARGUMENT]: key, ...rest } = args as Record<string, unknown>;
        const input = tool.hints.readOnly ? (args as Record<string, unknown>) : rest;
        const progress = progressFor(extra);
        // Approvals quote and store before answering: worth a word to a waiting user.
        const slow = !tool.hints.readOnly || tool.preview !== undefined;
        if (slow) progress.report(`${tool.name}: checking the policy`);
        const ask = options.confirmWrites === false ? undefined : confirmerFor(server, extra);
        const confirm =
          ask === undefined
            ? undefined
            : (write: WriteToConfirm) => {
                progress.report(`${tool.name}: waiting for the user to confirm`);
                return ask(write);
              };
        try {
          const executor = await getExecutor();
          const result = await executor.execute({
            tool: tool.name,
            input,
            actor,
            onProgress: (message) => progress.report(message),
            signal: extra.signal,
            ...(typeof key === 'string' && !tool.hints.readOnly ? { idempotencyKey: key } : {}),
            ...(confirm === undefined ? {} : { confirm }),
          });
          if (slow) progress.report(`${tool.name}: ${outcomeWords(result)}`);
          await progress.flushed();
          return toCallToolResult(tool, result);
        } catch (error) {
          await progress.flushed();
          return errorResult(
            `bankops could not run ${tool.name}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    );
    listed.push({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: schemas.inputSchema as ListToolsResult['tools'][number]['inputSchema'],
      outputSchema: schemas.outputSchema as ListToolsResult['tools'][number]['inputSchema'],
      annotations,
    });
  }

  // The SDK would list draft-07 schemas converted anew on every request; we advertise the registry's
  // (2020-12, MCP's default dialect, compacted: see schemas.ts), built once. Calls, input and output
  // validation stay the SDK's, from the same zod schemas.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  registerResources(server, { tools, getExecutor, actor });
  return server;
}

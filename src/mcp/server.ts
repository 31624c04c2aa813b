import { McpServer } from '@modelcontextprotocol/server';
import type { Executor } from '../core/executor.js';
import type { Actor } from '../core/policy/types.js';
import type { Registry } from '../core/registry.js';
import type { AnyTool, Toolset } from '../core/tool.js';
import { packageVersion } from '../core/version.js';
import { CONFIRM_TIMEOUT_MS } from './confirm.js';
import { INSTRUCTIONS, mcpDescription } from './listing.js';
import { progressCounter } from './progress.js';
import { registerResources } from './resources.js';
import { mcpSchemas } from './schemas.js';
import { toolCallHandler } from './tool-call.js';

export interface McpServerOptions {
  registry: Registry;
  /** The executor, built lazily: tools/list must answer without it (fast start-up). */
  getExecutor: () => Promise<Executor>;
  /** Who the assistant is, for the policy and the audit log. */
  actor: Actor;
  toolsets?: readonly Toolset[];
  readOnly?: boolean;
  /**
   * Offer tools whose input is a secret a person holds (a PIN, an activation or assignment code, a
   * full card number). Off by default: whatever an assistant sends passes through its model.
   */
  secretInputs?: boolean;
  /**
   * Ask the person to confirm a write the policy allows outright, when the client can show a form
   * (default true). Writes that need approval are confirmed by their approvers instead.
   */
  confirmWrites?: boolean;
}

/**
 * Tools an assistant needs to follow a `pending_approval` to its end: offered whatever the toolsets,
 * since a write without them leaves the assistant with an approval id and nothing to do with it.
 */
export const ALWAYS_OFFERED: readonly string[] = ['get_approval', 'list_approvals'];

/** The registry's tools this server offers, in the registry's order: the same on every connection. */
export function offeredTools(
  registry: Registry,
  options: Pick<McpServerOptions, 'toolsets' | 'readOnly' | 'secretInputs'>,
): AnyTool[] {
  const toolsets = options.toolsets;
  return registry
    .list({ readOnly: options.readOnly === true, noSecretInput: options.secretInputs !== true })
    .filter(
      (tool) =>
        toolsets === undefined || toolsets.includes(tool.toolset) || ALWAYS_OFFERED.includes(tool.name),
    );
}

/**
 * An MCP server offering the registry's tools (DESIGN decision 9), for one connection (stdio, a
 * 2025-era HTTP session) or one request (2026-07-28 HTTP). Every call goes to the executor as
 * `{tool, input, actor}`: validation, policy, approvals and audit happen there, never here.
 * Approving is not a tool, so an assistant can never approve its own request.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { getExecutor, actor } = options;
  const server = new McpServer(
    { name: 'bankops', title: 'bankops', version: packageVersion() },
    {
      capabilities: { tools: { listChanged: false }, resources: {} },
      instructions: INSTRUCTIONS,
      inputRequired: { roundTimeoutMs: CONFIRM_TIMEOUT_MS },
    },
  );
  const tools = offeredTools(options.registry, options);
  const context = {
    server,
    getExecutor,
    actor,
    confirmWrites: options.confirmWrites !== false,
    progress: progressCounter(),
  };
  for (const tool of tools) {
    const schemas = mcpSchemas(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: mcpDescription(tool),
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        // The title is the tool's own (`title` above): not repeated in the annotations.
        annotations: {
          readOnlyHint: tool.hints.readOnly,
          destructiveHint: tool.hints.destructive,
          idempotentHint: tool.hints.idempotent,
          openWorldHint: tool.hints.openWorld,
        },
      },
      toolCallHandler(tool, context),
    );
  }
  registerResources(server, { tools, getExecutor, actor });
  return server;
}

import { McpServer } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import type { Executor } from '../core/executor.js';
import { packageVersion } from '../core/package-root.js';
import type { Actor } from '../core/policy/types.js';
import type { Registry } from '../core/registry.js';
import type { Toolset } from '../core/tool.js';
import { CONFIRM_TIMEOUT_MS } from './confirm.js';
import { catalogOf, offeredTools, type ToolCatalog, type ToolListing } from './listing.js';
import { progressCounter } from './progress.js';
import { registerResources } from './resources.js';
import { INSTRUCTIONS } from './said-once.js';
import { type SdkSchemas, sdkSchemas } from './schemas.js';
import { toolCallHandler } from './tool-call.js';

export { ALWAYS_OFFERED, offeredTools } from './listing.js';

export interface McpServerOptions {
  /** The tools: a registry, or a catalog that loads them at their first call (listing.ts). */
  registry: Registry | ToolCatalog;
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
      // The SDK checks a form's answer against the form with it (a boolean confirmation is all
      // bankops asks). Its small validator, not Ajv: the stdio bundle then never loads Ajv
      // (scripts/bundle-mcp.mjs), and every entry checks answers the same way.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const catalog = catalogOf(options.registry);
  const tools = offeredTools(catalog, options);
  const context = {
    server,
    catalog,
    getExecutor,
    actor,
    confirmWrites: options.confirmWrites !== false,
    progress: progressCounter(),
  };
  for (const tool of tools) {
    const schemas = sdkSchemasOf(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
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
  registerResources(server, { tools, catalog, getExecutor, actor });
  return server;
}

/** Per listing, made once: HTTP builds a server per request, all listing the same tools. */
const registered = new WeakMap<ToolListing, SdkSchemas>();

function sdkSchemasOf(tool: ToolListing): SdkSchemas {
  let schemas = registered.get(tool);
  if (schemas === undefined) {
    schemas = sdkSchemas(tool, tool.hints.readOnly);
    registered.set(tool, schemas);
  }
  return schemas;
}

import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from '@modelcontextprotocol/server';
import { ConfirmationDeferred } from '../core/confirmation.js';
import { asCodedError } from '../core/errors.js';
import type { ExecuteRequest, Executor } from '../core/executor.js';
import type { Actor } from '../core/policy/types.js';
import type { ExecuteResult } from '../core/results.js';
import { failureAdvice } from '../present/failure.js';
import { canShowForm, confirmationFor, confirmationRequest } from './confirm.js';
import type { ToolCatalog, ToolListing } from './listing.js';
import { type ProgressCounter, progressFor } from './progress.js';
import { errorResult, toCallToolResult } from './results.js';
import { IDEMPOTENCY_ARGUMENT } from './schemas.js';

export interface ToolCallContext {
  server: McpServer;
  catalog: ToolCatalog;
  getExecutor: () => Promise<Executor>;
  actor: Actor;
  confirmWrites: boolean;
  progress: ProgressCounter;
}

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
 * The tools/call handler of one tool: `{tool, input, actor}` to the executor, its result to MCP.
 * Validation, policy, approvals and audit are the executor's. A write the policy allows outright is
 * first confirmed by the person, where the client can show a form (confirm.ts).
 */
export function toolCallHandler(
  tool: ToolListing,
  context: ToolCallContext,
): (args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult> {
  const { server, getExecutor, actor } = context;
  // Approvals quote and store before answering: worth a word to a waiting user.
  const { slow } = tool;
  return async (args, ctx) => {
    // Only writes take the key; on a read it stays an argument the executor refuses.
    const { [IDEMPOTENCY_ARGUMENT]: key, ...rest } = args;
    const input = tool.hints.readOnly ? args : rest;
    const progress = progressFor(ctx, context.progress);
    if (slow) progress.report(`${tool.name}: checking the policy`);
    const ask = context.confirmWrites && !tool.hints.readOnly && canShowForm(server, ctx);
    const request: ExecuteRequest = {
      tool: tool.name,
      input,
      actor,
      onProgress: (message) => progress.report(message),
      signal: ctx.mcpReq.signal,
      ...(typeof key === 'string' && !tool.hints.readOnly ? { idempotencyKey: key } : {}),
      ...(ask ? { confirm: confirmationFor(ctx) } : {}),
    };
    try {
      const result = await (await getExecutor()).execute(request);
      if (slow) progress.report(`${tool.name}: ${outcomeWords(result)}`);
      await progress.flushed();
      return toCallToolResult(await context.catalog.tool(tool.name), result);
    } catch (error) {
      if (error instanceof ConfirmationDeferred) {
        progress.report(`${tool.name}: waiting for the user to confirm`);
        await progress.flushed();
        return confirmationRequest(error.write);
      }
      await progress.flushed();
      // The words come from the error's code alone, as for a failure the executor reports.
      const coded = asCodedError(error);
      const advice = failureAdvice({ kind: coded.code, httpStatus: coded.httpStatus }, tool.hints.readOnly);
      return errorResult(`bankops could not run ${tool.name}: ${coded.message}. ${advice}`);
    }
  };
}

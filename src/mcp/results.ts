import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApprovalViewSchema } from '../core/approvals/types.js';
import type { ExecuteResult, Failure, FieldError } from '../core/results.js';
import type { AnyTool } from '../core/tool.js';
import { approvalSummary } from '../present/approval-summary.js';
import { approvalLines, joinedLine, statusLine } from '../present/approval-words.js';
import { describeFailure } from '../present/failure.js';
import { nameActors } from '../present/people.js';

/**
 * An executor result as MCP wants it. Success and `pending_approval` carry `structuredContent`
 * matching the advertised output schema (the tool's own for reads, the envelope of `schemas.ts` for
 * writes; the SDK checks it before sending), plus the same JSON as text for clients that only read
 * text. Refusals and failures are `isError` results whose text says what to do about them.
 */
export function toCallToolResult(tool: AnyTool, result: ExecuteResult): CallToolResult {
  switch (result.status) {
    case 'ok': {
      const parsed = tool.output.safeParse(result.output);
      if (!parsed.success) {
        return errorResult(
          `${tool.name} ran, but its output does not match its schema (a bankops bug; the request id is ${result.requestId}): ${parsed.error.issues.map((i) => `${i.path.join('.') || '(output)'}: ${i.message}`).join('; ')}`,
        );
      }
      // Parsing keeps exactly what the schema describes, so a client checking it finds no stray field.
      if (!tool.hints.readOnly) return structured({ status: 'ok', result: parsed.data });
      // An approval read says where it stands first, in the words of every front end.
      return structured(parsed.data, tool.name === 'get_approval' ? approvalLead(parsed.data) : undefined);
    }
    case 'pending_approval': {
      const approval = approvalSummary(result.approval);
      const line = result.joined
        ? `${joinedLine(result.approval, result.approval.requester)} Nothing new has happened.`
        : `${tool.name} is waiting for approval ${result.approvalId}; nothing has happened yet.`;
      // A read's output schema has no room for an approval (only a custom policy makes a read wait).
      if (tool.hints.readOnly) return errorResult(`${line} ${approval.summary}. ${approval.next}`);
      return structured({ status: 'pending_approval', approvalId: result.approvalId, approval }, line);
    }
    case 'invalid':
      return errorResult(invalidText(tool.name, result.errors));
    case 'denied':
      return errorResult(
        `Denied by the bankops policy: ${nameActors(result.reason)}. Retrying will not change this; the resource bankops://policy lists what you may call.`,
      );
    case 'declined':
      return errorResult(
        `${nameActors(result.reason)}. Nothing was changed. Do not call it again unless the user asks for it.`,
      );
    case 'failed':
      return errorResult(failureText(tool, result.error));
  }
}

function structured(value: Record<string, unknown>, lead?: string): CallToolResult {
  const json = JSON.stringify(value);
  return {
    content: [{ type: 'text', text: lead === undefined ? json : `${lead}\n${json}` }],
    structuredContent: value,
  };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function invalidText(tool: string, errors: readonly FieldError[]): string {
  const lines = errors.map((e) => `- ${e.path === '' ? '(the input as a whole)' : e.path}: ${e.message}`);
  return `Invalid input for ${tool}:\n${lines.join('\n')}\nCorrect these fields and call ${tool} again.`;
}

/** The service's own message first, then what identifies the call, then what to do. */
function failureText(tool: AnyTool, error: Failure): string {
  const words = describeFailure({ name: tool.name, readOnly: tool.hints.readOnly }, error);
  const facts = words.facts.length === 0 ? '' : ` (${words.facts.join(', ')})`;
  const issues = words.issues.map((issue) => `\n- ${issue}`).join('');
  return `${words.headline}${facts}${issues}\n${words.advice}`;
}

/**
 * `Waiting for 1 controller (1 of 2 …), until …`, then what it does and what is known of its payee
 * (`First payment to this beneficiary`, `Not verified`): an approval view in the words every front
 * end shows.
 */
function approvalLead(output: unknown): string | undefined {
  const view = ApprovalViewSchema.safeParse(output);
  if (!view.success) return undefined;
  return [statusLine(view.data), ...approvalLines(view.data).map((line) => `• ${line}`)].join('\n');
}

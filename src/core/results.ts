import type { ApprovalView, Failure } from './approvals/view-schema.js';

/** A field the input schema refused, with a message saying what to fix. */
export interface FieldError {
  /** Dotted path into the input (`individual.name.first_name`), or `''` for the whole input. */
  path: string;
  message: string;
}

/** Why a call failed, with the service's own message when the service refused it. */
export type { Failure } from './approvals/view-schema.js';

/** The one result type of the executor, for every front end. */
export type ExecuteResult =
  | { status: 'ok'; tool: string; output: Record<string, unknown>; requestId: string }
  | { status: 'denied'; tool: string; reason: string }
  /** A write the policy allowed, which the person asked to confirm it (MCP elicitation) did not. */
  | { status: 'declined'; tool: string; reason: string }
  | { status: 'invalid'; tool: string; message: string; errors: FieldError[] }
  | {
      status: 'pending_approval';
      tool: string;
      approvalId: string;
      approval: ApprovalView;
      /** This request joined an identical one already waiting (same requester, tool and input). */
      joined?: true;
    }
  | { status: 'failed'; tool: string; error: Failure };

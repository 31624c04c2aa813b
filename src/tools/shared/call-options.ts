import type { CallOptions } from '../../core/client/index.js';
import type { ToolContext } from '../../core/tool.js';

/** The part of a tool's context the call options come from. */
type Ctx = Pick<ToolContext, 'requestId' | 'signal'>;

/**
 * Options for a read: only the caller's abort signal. The client gives each read its own request id,
 * so a repeated read is a new request.
 */
export function readOptions(ctx: Ctx): CallOptions {
  return ctx.signal === undefined ? {} : { signal: ctx.signal };
}

/**
 * Options for a call that creates, moves or changes something: the execution's request id, so a
 * retried or re-executed approval (one reconciled after a crash, a caller's retry with its
 * idempotency key) is the same request at the service and creates nothing twice.
 */
export function writeOptions(ctx: Ctx): CallOptions {
  return { ...readOptions(ctx), requestId: ctx.requestId };
}

import { ConfirmationDeferred } from './confirmation.js';
import type { ExecuteResult } from './results.js';

/** How a call ended, in the few words an operator counts by. */
export type ToolOutcome = 'ok' | 'refused' | 'invalid' | 'pending' | 'failed';

/** One call through the executor, as a counter sees it: no input, no ids. */
export interface ToolCall {
  /** A tool of the registry, or `unknown` for a name it does not hold. */
  tool: string;
  frontEnd: string;
  outcome: ToolOutcome;
  seconds: number;
}

/** Told of every call the executor finished (metrics); must not throw. */
export type ToolCallObserver = (call: ToolCall) => void;

function outcomeOf(result: ExecuteResult): ToolOutcome {
  switch (result.status) {
    case 'ok':
      return 'ok';
    case 'denied':
    case 'declined':
      return 'refused';
    case 'invalid':
      return 'invalid';
    case 'pending_approval':
      return 'pending';
    case 'failed':
      return 'failed';
  }
}

/**
 * Runs one call and tells the observer how it ended. A call put off until the person answers
 * (`ConfirmationDeferred`) has not ended: it is counted when it comes back with the answer.
 */
export function observed(
  observer: ToolCallObserver | undefined,
  call: Pick<ToolCall, 'tool' | 'frontEnd'>,
  run: () => Promise<ExecuteResult>,
): Promise<ExecuteResult> {
  // Unobserved, the call's own promise: no extra turn on every call.
  return observer === undefined ? run() : observedBy(observer, call, run);
}

async function observedBy(
  observer: ToolCallObserver,
  call: Pick<ToolCall, 'tool' | 'frontEnd'>,
  run: () => Promise<ExecuteResult>,
): Promise<ExecuteResult> {
  const started = performance.now();
  try {
    const result = await run();
    tell(observer, call, outcomeOf(result), started);
    return result;
  } catch (error) {
    if (!(error instanceof ConfirmationDeferred)) tell(observer, call, 'failed', started);
    throw error;
  }
}

// A module function, not a closure made for every call.
function tell(
  observer: ToolCallObserver,
  call: Pick<ToolCall, 'tool' | 'frontEnd'>,
  outcome: ToolOutcome,
  started: number,
): void {
  observer({
    tool: call.tool,
    frontEnd: call.frontEnd,
    outcome,
    seconds: (performance.now() - started) / 1000,
  });
}

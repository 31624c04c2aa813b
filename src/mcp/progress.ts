import type { ServerContext } from '@modelcontextprotocol/server';

export interface Progress {
  /** Sends `notifications/progress` with this message, if the client asked for progress. */
  report(message: string): void;
  /** Resolves once every report is sent: the result must not overtake them (clients drop late ones). */
  flushed(): Promise<void>;
}

/** Counts every report of one server, so `progress` increases for a token across the rounds of a call. */
export interface ProgressCounter {
  next(): number;
}

export const progressCounter = (): ProgressCounter => {
  let count = 0;
  return {
    next: () => {
      count += 1;
      return count;
    },
  };
};

/**
 * Progress for one tools/call: only when the request carries `_meta.progressToken`. `progress`
 * counts the messages (MCP wants it to increase; we cannot know a total in advance).
 */
export function progressFor(ctx: ServerContext, counter: ProgressCounter): Progress {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { report: () => {}, flushed: async () => {} };
  let chain = Promise.resolve();
  return {
    report(message) {
      const params = { progressToken: token, progress: counter.next(), message };
      // A client that went away must not fail the call: progress is a courtesy.
      chain = chain.then(() =>
        ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {}),
      );
    },
    flushed: () => chain,
  };
}

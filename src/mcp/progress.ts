import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface Progress {
  /** Sends `notifications/progress` with this message, if the client asked for progress. */
  report(message: string): void;
  /** Resolves once every report is sent: the result must not overtake them (clients drop late ones). */
  flushed(): Promise<void>;
}

/**
 * Progress for one tools/call: only when the request carries `_meta.progressToken`. `progress`
 * counts the messages (MCP wants it to increase; we cannot know a total in advance).
 */
export function progressFor(extra: ToolExtra): Progress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { report: () => {}, flushed: async () => {} };
  let count = 0;
  let chain = Promise.resolve();
  return {
    report(message) {
      count += 1;
      const params = { progressToken: token, progress: count, message };
      // A client that went away must not fail the call: progress is a courtesy.
      chain = chain.then(() =>
        extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {}),
      );
    },
    flushed: () => chain,
  };
}

import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { isDatabaseUnreachable } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { databaseDownMessage } from '../render/outcome.js';
import { replyTo } from '../respond.js';

/** The response_url of a command or a button in a message, where an answer to the person goes. */
function responseUrlOf(body: AnyMiddlewareArgs['body']): string | undefined {
  const url = 'response_url' in body ? body.response_url : undefined;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * Bolt global middleware, outermost: when anything after it (the once-only check, the person's
 * lookup, a listener) fails because the database cannot be reached, the request is acknowledged and
 * the person told so, ephemerally, instead of a generic error or nothing. Other errors go on to
 * Bolt's error handler.
 */
export function answerDatabaseDown(log: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      log.warn('slack: the database cannot be reached; the request was answered so', {
        type: args.body.type,
        error,
      });
      // Acknowledging twice is harmless (the receivers ignore a second one).
      if ('ack' in args && typeof args.ack === 'function') await args.ack();
      const url = responseUrlOf(args.body);
      if (url === undefined) return;
      try {
        await replyTo(url)(databaseDownMessage());
      } catch (replyError) {
        log.error('slack: the answer could not be sent', { error: replyError });
      }
    }
  };
}

import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { isDatabaseUnreachable } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { DATABASE_UNREACHABLE } from '../../present/failure.js';
import { databaseDownMessage } from '../render/outcome.js';
import type { SlackCall } from '../store/outbox.js';
import { answerWherever } from './answer.js';

/**
 * Bolt global middleware, outermost: when anything after it (the once-only check, the person's
 * lookup, a listener) fails because the database cannot be reached, the request is acknowledged and
 * the person told so wherever they are (a command or a button ephemerally, a form on its first
 * field, the App Home in its tab), instead of a generic error or nothing. (A listener that already
 * acknowledged shows its own outcome, the database's failure included.) Other errors go on to
 * Bolt's error handler.
 */
export function answerDatabaseDown(log: Logger, call: SlackCall): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      log.warn('slack: the database cannot be reached; the request was answered so', {
        type: args.body.type,
        error,
      });
      const answer = {
        message: databaseDownMessage(),
        formError: `${DATABASE_UNREACHABLE.state}: nothing was submitted. ${DATABASE_UNREACHABLE.advice}`,
      };
      try {
        await answerWherever(args, answer, call);
      } catch (replyError) {
        log.error('slack: the answer could not be sent', { error: replyError });
      }
    }
  };
}

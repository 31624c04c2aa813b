import { isDatabaseUnreachable } from '../../core/errors.js';
import type { Actor } from '../../core/policy/types.js';
import { homeAnswer } from '../middleware/answer.js';
import type { SlackMessage } from '../render/message.js';
import { databaseDownMessage } from '../render/outcome.js';
import { replyTo } from '../respond.js';
import type { SlackServices } from '../services.js';
import { type HomeServices, publishHome } from './home-tab.js';

/** Where the person who submitted an approval's form is answered once it closed. */
export interface FormWhere {
  /** The message its button was on; absent, the button was on the App Home. */
  responseUrl?: string;
  userId: string;
  actor: Actor;
}

/**
 * Runs what a form asked for after the form was acknowledged (closed), and tells the person the
 * outcome where they clicked: the message its button was on (response_url), else their App Home
 * with the answer on top. The form cannot be answered inline any more (Slack waited 3 s at most),
 * so the database going away meanwhile is told there too, as "bankops cannot reach its database"
 * (the global middleware can no longer answer a form already acknowledged). The App Home's list of
 * approvals needs the database as well: then the answer is all it shows.
 */
export async function answerAfterForm(
  services: HomeServices & Pick<SlackServices, 'log'>,
  where: FormWhere,
  work: () => Promise<SlackMessage>,
  what: { form: string; approvalId: string },
): Promise<void> {
  const { responseUrl, userId, actor } = where;
  try {
    const answer = await work();
    if (responseUrl !== undefined) await replyTo(responseUrl)(answer);
    else await publishHome(services, userId, actor, answer.blocks);
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    services.log.warn(`slack: the database cannot be reached; the ${what.form} form was answered so`, {
      approvalId: what.approvalId,
      error,
    });
    const down = databaseDownMessage();
    if (responseUrl !== undefined) await replyTo(responseUrl)(down);
    else await homeAnswer(services.call, userId, down);
  }
}

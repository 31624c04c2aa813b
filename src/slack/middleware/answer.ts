import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import type { SlackMessage } from '../render/message.js';
import { inlineErrors } from '../render/modal.js';
import { replyTo } from '../respond.js';
import type { SlackCall } from '../store/outbox.js';

/** What a request that goes no further tells the person: the message, and its words for a form. */
export interface Answer {
  message: SlackMessage;
  /** Shown on the form's first field: a form has no place for a whole message. */
  formError: string;
}

/** Shows `message` as the person's whole App Home: what its list of approvals would need is away. */
export async function homeAnswer(call: SlackCall, userId: string, message: SlackMessage): Promise<void> {
  await call('views.publish', { user_id: userId, view: { type: 'home', blocks: message.blocks } });
}

/**
 * Answers a request that goes no further (a stranger, the database away), once, wherever the
 * person is: a command or a button through its response_url, a form inline on its first field (a
 * form without fields in a direct message), the App Home (and its buttons, which have no
 * response_url) in the home tab itself. Called before anything acknowledged the request.
 */
export async function answerWherever(
  args: AnyMiddlewareArgs & AllMiddlewareArgs,
  answer: Answer,
  call: SlackCall,
): Promise<void> {
  const { message } = answer;
  const { userId } = args.context;
  const publishHome = async () => {
    if (userId !== undefined) await homeAnswer(call, userId, message);
  };
  if ('command' in args) {
    await args.ack();
    return replyTo(args.command.response_url)(message);
  }
  if ('action' in args && args.body.type === 'block_actions') {
    await args.ack();
    const url = args.body.response_url;
    return url === undefined || url === '' ? publishHome() : replyTo(url)(message);
  }
  if ('view' in args && args.body.type === 'view_submission') {
    const blockIds = Object.keys(args.view.state.values);
    if (blockIds.length > 0) {
      return args.ack({
        response_action: 'errors',
        errors: inlineErrors([{ path: '', message: answer.formError }], blockIds),
      });
    }
    await args.ack();
    if (userId !== undefined) await call('chat.postMessage', { channel: userId, ...message });
    return;
  }
  if ('ack' in args && typeof args.ack === 'function') await args.ack();
  if ('event' in args && args.event.type === 'app_home_opened') await publishHome();
}

import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { optional } from '../../core/optional.js';
import { ACTIONS } from '../ids.js';
import { nextPageRef, pageRef, shareRef } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { button, context, line, type SlackMessage } from '../render/message.js';
import { replyTo } from '../respond.js';
import type { SlackServices } from '../services.js';
import { slackRefusal } from '../web-api-errors.js';
import { withButtons } from './output.js';
import { type AnswerServices, runAndAnswer } from './run.js';

type ButtonArgs = AllMiddlewareArgs<ActorContext> & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

const GONE = line(':hourglass: This answer is older than 30 minutes; ask again.');

/** What a channel sees of a shared answer: who shared it, the content, no buttons. */
function forChannel(page: SlackMessage, userId: string): SlackMessage {
  return {
    text: page.text,
    blocks: [context(`Shared by <@${userId}>`), ...page.blocks.filter((block) => block.type !== 'actions')],
    ...optional('attachments', page.attachments),
  };
}

/** "Share in channel": posts the answer exactly as its reader saw it (a read without secrets only). */
export function share(services: Pick<SlackServices, 'answers' | 'call'>) {
  return async ({ body, action, ack }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = replyTo(body.response_url);
    const answer = await services.answers.get(shareRef.decode(action.value)?.answerId ?? '');
    const channel = body.channel?.id;
    if (answer === undefined || channel === undefined) return reply(GONE);
    if (answer.userId !== body.user.id || !answer.shareable) {
      return reply(
        line(':no_entry: Only the person who asked can share this answer, and only a read without secrets.'),
      );
    }
    try {
      for (const page of answer.pages) {
        await services.call('chat.postMessage', {
          channel,
          ...forChannel(page, body.user.id),
          unfurl_links: false,
        });
      }
    } catch (error) {
      const code = slackRefusal(error);
      const hint =
        code === 'not_in_channel' || code === 'channel_not_found'
          ? 'bankops is not in this channel: invite it (`/invite @bankops`) and share again.'
          : `Slack refused it (${code ?? 'error'}).`;
      return reply(line(`:warning: Not shared. ${hint}`));
    }
    return reply(line(`:white_check_mark: Shared in <#${channel}>.`));
  };
}

/** "More": the next page of an answer too long for one message. */
export function morePage(services: Pick<SlackServices, 'answers'>) {
  return async ({ body, action, ack }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = replyTo(body.response_url);
    const ref = pageRef.decode(action.value);
    const answer = await services.answers.get(ref?.answerId ?? '');
    const page = ref === undefined ? undefined : answer?.pages[ref.page];
    if (answer === undefined || ref === undefined || page === undefined) return reply(GONE);
    if (answer.userId !== body.user.id) return reply(line(':no_entry: This answer is someone else’s.'));
    const left = answer.pages.length - ref.page - 1;
    const next =
      left > 0
        ? [
            button(
              `More (${left} more page${left === 1 ? '' : 's'})`,
              ACTIONS.morePage,
              pageRef.encode({ answerId: answer.id, page: ref.page + 1 }),
            ),
          ]
        : [];
    return reply(withButtons(page, next));
  };
}

/** "More from the service": the next page of a list the service pages, run as the person who clicked. */
export function serviceNext(services: AnswerServices & Pick<SlackServices, 'registry'>) {
  return async ({ body, action, ack, context: { actor } }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = replyTo(body.response_url);
    const next = nextPageRef.decode(action.value);
    const tool = next === undefined ? undefined : services.registry.get(next.tool);
    if (next === undefined || tool === undefined || tool.secretInput === true) return reply(GONE);
    const asker = { actor, userId: body.user.id, channelId: body.channel?.id ?? '', reply };
    return runAndAnswer(services, asker, tool, next.input);
  };
}

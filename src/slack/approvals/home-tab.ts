import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Actor } from '../../core/policy/types.js';
import { policyView } from '../../present/policy-view.js';
import { helpMessage } from '../commands/help.js';
import type { ActorContext } from '../middleware/actor.js';
import { type Block, LIMITS } from '../render/message.js';
import { type SlackServices, slackTools } from '../services.js';
import { homeBlocks } from './home.js';

/** What the App Home reads: the executor (approvals, policy), the tools, and `views.publish`. */
export type HomeServices = Pick<SlackServices, 'executor' | 'registry' | 'call'>;

/**
 * Publishes a person's App Home: `top` first (the answer to a button clicked there), then their
 * approvals, then what they may do; within the home tab's 100 blocks.
 */
export async function publishHome(
  services: HomeServices,
  userId: string,
  actor: Actor,
  top: Block[] = [],
): Promise<void> {
  const tools = slackTools(services.registry);
  const message = helpMessage(policyView(services.executor.policy, actor, tools), tools);
  const budget = LIMITS.modalBlocks - top.length - message.blocks.length;
  const approvals = budget > 3 ? await homeBlocks(services, actor, budget) : [];
  await services.call('views.publish', {
    user_id: userId,
    view: { type: 'home', blocks: [...top, ...approvals, ...message.blocks] },
  });
}

type HomeOpenedArgs = AllMiddlewareArgs<ActorContext> & SlackEventMiddlewareArgs<'app_home_opened'>;

/** The App Home tab, when its owner opens it. */
function homeOpened(services: HomeServices) {
  return async ({ event, context }: HomeOpenedArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    await publishHome(services, event.user, context.actor);
  };
}

export const registerHome = (app: App<ActorContext>, services: HomeServices): void => {
  app.event('app_home_opened', homeOpened(services));
};

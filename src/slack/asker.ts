import type { Actor } from '../core/policy/types.js';
import type { Reply } from './respond.js';

/** The person behind a command, a button or a form: who they are to the policy, and where to answer. */
export interface Asker {
  actor: Actor;
  userId: string;
  /** The Slack handle the request showed (`user_name`), for the requester's name in other front ends. */
  userName?: string;
  /** The channel the command was typed in (a share or a subscription's default goes there). */
  channelId: string;
  reply: Reply;
}

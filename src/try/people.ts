import type { ActorEntry } from '../core/policy/schema.js';

/**
 * The people of the local workspace: a requester, two approvers (in a user group, as a bank would
 * set it up) and a viewer, with the default policy's roles. They exist only in this workspace: the
 * policy in force gets them for this process (`PolicyStore.addActors`), the policy file gains nothing.
 */

export interface Person {
  id: string;
  /** The handle Slack sends as `user_name` and shows after `@`. */
  handle: string;
  name: string;
  /** What they do here, for the user switcher. */
  role: string;
}

export const REQUESTER: Person = {
  id: 'U0OLIVIA',
  handle: 'olivia',
  name: 'Olivia Okafor',
  role: 'operator: asks for payouts',
};
export const APPROVER: Person = {
  id: 'U0AMIRA',
  handle: 'amira',
  name: 'Amira Haddad',
  role: 'approver (treasury)',
};
export const SECOND_APPROVER: Person = {
  id: 'U0TOMAS',
  handle: 'tomas',
  name: 'Tomás Ruiz',
  role: 'approver (treasury)',
};
export const VIEWER: Person = { id: 'U0VERA', handle: 'vera', name: 'Vera Lind', role: 'viewer: reads only' };

export const PEOPLE: readonly Person[] = [REQUESTER, APPROVER, SECOND_APPROVER, VIEWER];

/** The app's bot user: the author of everything bankops posts. */
export const BOT = { userId: 'U0BANKOPS', botId: 'B0BANKOPS', appId: 'A0BANKOPS', name: 'bankops' } as const;
/** Slack's own voice (errors of a slash command, "not a valid command"). */
export const SLACKBOT = { userId: 'USLACKBOT', name: 'Slackbot' } as const;

export const TEAM = { id: 'T0LOCAL', domain: 'bankops-local' } as const;

/** The user group of the approvers, which the policy gives the approver role. */
export const TREASURY = { id: 'S0TREASURY', handle: 'treasury', members: [APPROVER.id, SECOND_APPROVER.id] };

export interface ChannelInfo {
  id: string;
  name: string;
}

export const PAYMENTS: ChannelInfo = { id: 'C0PAYMENTS', name: 'payments' };
/** Where approvals are posted (`BANKOPS_SLACK_APPROVALS_CHANNEL` of the app it runs). */
export const APPROVALS: ChannelInfo = { id: 'C0APPROVALS', name: 'approvals' };
export const CHANNELS: readonly ChannelInfo[] = [PAYMENTS, APPROVALS];

/** The app's direct-message channel with a person ("bankops" under Apps). */
export const dmOf = (userId: string): string => `D${userId.slice(1)}`;

/** The policy entries of the workspace's people: the default policy's roles, nothing more. */
export const WORKSPACE_ACTORS: readonly ActorEntry[] = [
  { match: { slackUser: REQUESTER.id }, roles: ['viewer', 'operator'] },
  { match: { slackGroup: TREASURY.id }, roles: ['viewer', 'approver'] },
  { match: { slackUser: VIEWER.id }, roles: ['viewer'] },
];

export const personById = (id: string): Person | undefined => PEOPLE.find((p) => p.id === id);

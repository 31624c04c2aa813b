import type { AnyTool } from '../core/tool.js';

/**
 * The tools grouped by what people do with them, for help that fits a screen (Slack's `/bank help
 * <group>`): money, cards, cardholders and their wallets, service events, approvals.
 */
export const TOOL_GROUPS = ['money', 'cards', 'cardholders', 'events', 'approvals'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

export const GROUP_WORDS: Readonly<Record<ToolGroup, string>> = {
  money: 'accounts, balances, payees, payouts and conversions',
  cards: 'cards: create, look up, lock, PIN links, limits, 3-D Secure, transactions',
  cardholders: 'cardholders, their KYC and requests for information, their wallets',
  events: "the service's event notifications: subscriptions and the catalog",
  approvals: 'approvals: look one up, list them',
};

export function toolGroup(tool: Pick<AnyTool, 'name' | 'toolset'>): ToolGroup {
  switch (tool.toolset) {
    case 'admin':
      return 'approvals';
    case 'notifications':
      return 'events';
    case 'banking':
      return 'money';
    default:
      return /cardholder|kyc|rfi|wallet/.test(tool.name) ? 'cardholders' : 'cards';
  }
}

export const isToolGroup = (word: string): word is ToolGroup =>
  (TOOL_GROUPS as readonly string[]).includes(word);

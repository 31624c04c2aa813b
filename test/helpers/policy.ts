import type { Actor, PolicyTool, Toolset } from '../../src/core/policy/index.js';

/** A tool value with just what the policy reads; `money` reads `{amount, currency}` from the input. */
export function tool(
  name: string,
  options: { toolset?: Toolset; readOnly?: boolean; destructive?: boolean; money?: boolean } = {},
): PolicyTool {
  const readOnly = options.readOnly ?? false;
  const base: PolicyTool = {
    name,
    toolset: options.toolset ?? 'banking',
    hints: { readOnly, destructive: options.destructive ?? false, idempotent: readOnly },
  };
  if (options.money !== true) return base;
  return {
    ...base,
    money: (input) => {
      if (typeof input !== 'object' || input === null) return undefined;
      const { amount, currency } = input as { amount?: unknown; currency?: unknown };
      return typeof amount === 'number' && typeof currency === 'string' ? { amount, currency } : undefined;
    },
  };
}

/** The tools the shipped defaults name, plus one read and one plain write per family. */
export const tools = {
  listAccounts: tool('list_accounts', { readOnly: true }),
  createBeneficiary: tool('create_beneficiary'),
  createPayout: tool('create_payout', { money: true }),
  createConversion: tool('create_conversion', { money: true }),
  transferWalletFunds: tool('transfer_wallet_funds', { toolset: 'issuing_b', money: true }),
  updateCardStatusB: tool('update_card_status_b', { toolset: 'issuing_b', destructive: true }),
  getCardDetailsB: tool('get_card_details_b', { toolset: 'issuing_b', readOnly: true }),
  deleteSubscription: tool('delete_subscription', { toolset: 'notifications', destructive: true }),
  createSubscription: tool('create_subscription', { toolset: 'notifications' }),
  listApprovals: tool('list_approvals', { toolset: 'admin', readOnly: true }),
  verifyAudit: tool('verify_audit', { toolset: 'admin' }),
};

export const slackUser = (userId: string, groups: string[] = []): Actor => ({
  id: `slack:${userId}`,
  frontEnd: 'slack',
  slackUserId: userId,
  slackGroupIds: groups,
});

export const mcpActor = (keyName: string): Actor => ({
  id: `mcp:${keyName}`,
  frontEnd: 'mcp',
  mcpKeyName: keyName,
});

export const cliUser = (name: string): Actor => ({ id: `cli:${name}`, frontEnd: 'cli', cliUser: name });

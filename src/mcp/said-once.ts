import { ACTING_USER_FIELDS, CONFIGURED_FIELDS } from '../tools/shared/configured.js';
import { FAMILY_A, FAMILY_B } from '../tools/shared/families.js';

/**
 * What an assistant reads once, at connection (`instructions`), instead of in every tool of
 * tools/list: how amounts are written, which codes the configuration fills, the two issuing
 * families, where ids come from, the retry key of writes, and what approval means.
 */
export const INSTRUCTIONS = `bankops operates a banking, card-issuing and notification service.
Amounts are decimal numbers in currency units (1250.5, not minor units). Company, program, agent and sub-agent codes come from the configuration, and the service records you as the creator or editor of what you change.
Issuing tools come in two families, named by their suffix: _a tools serve programs of family A (on /svc/issuing/api/v1), _b tools programs of family B (on /issuing/api/v1). Use the family of the cardholder's program.
Ids come from the tools that list or create them: accounts from list_accounts, family A cardholders from list_cardholders_a, wallets from list_wallets_a or list_wallets_b, family B cards from list_cards_b.
Every write takes an optional idempotencyKey: calling again with the same key and input returns the first result and never acts twice, so reuse it when you retry after an error or a lost answer.
Reads run at once. Other writes run at once too, after the user confirms them if your client can ask. Some writes (payouts, conversions, wallet transfers, permanent card blocks, deleting subscriptions) need a person's approval: they return status "pending_approval" with an approvalId, and nothing has happened yet. Tell the user, then follow it with get_approval. You cannot approve.
The resource bankops://policy says which tools you may call and which wait for approval.`;

/** The family sentence every issuing description starts with. */
const FAMILIES: readonly string[] = [FAMILY_A, FAMILY_B];

/**
 * A tool's description as tools/list gives it: the registry's, without the family sentence (the
 * name's suffix, `_a` or `_b`, and the title say the family; the instructions say once which
 * programs each serves).
 */
export function mcpDescription(description: string): string {
  const sentence = FAMILIES.find((family) => description.startsWith(family));
  return sentence === undefined ? description : description.slice(sentence.length).trimStart();
}

/** Fields a tool fills itself: the instructions say so once (see `INSTRUCTIONS`). */
const FILLED = new Set([...CONFIGURED_FIELDS, ...ACTING_USER_FIELDS]);

/**
 * A compacted input schema without the fields a tool fills itself: the codes of the configuration
 * (an assistant has no other deployment's code to give) and the creator or editor the service
 * records (the acting user: an assistant must not record someone else). The instructions say so
 * once; the executor still accepts them.
 */
export function withoutFilledFields(input: Record<string, unknown>): Record<string, unknown> {
  const properties = input.properties;
  if (typeof properties !== 'object' || properties === null) return input;
  const required = Array.isArray(input.required) ? input.required : [];
  const kept = Object.entries(properties).filter(([field]) => !FILLED.has(field) || required.includes(field));
  return { ...input, properties: Object.fromEntries(kept) };
}

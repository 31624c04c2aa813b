import type { PreviewFacts } from '../../core/approvals/view-schema.js';
import { optional } from '../../core/optional.js';
import type { Preview, ToolContext } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { cardRef } from './fields.js';

/** LOST, STOLEN and BLOCKED block a card for good (spec: it cannot be reactivated). */
const PERMANENT_STATUSES: readonly string[] = ['LOST', 'STOLEN', 'BLOCKED'];

/** `**** **** **** 4242` → `4242`. */
const lastFour = (masked: string): string | undefined => /(\d{4})\D*$/.exec(masked)?.[1];

/** A card as people know it: last four, type, holder's name. */
export async function cardWords(
  input: { cardholderId: string; walletId: string; cardId: string },
  ctx: ToolContext,
): Promise<{ last4?: string; type?: string; holder?: string }> {
  const [card, holder] = await Promise.all([
    ctx.client.issuingB.getCardDetails(cardRef(input), readOptions(ctx)),
    ctx.client.issuingB.getCardholder({ cardholderHashId: input.cardholderId }, readOptions(ctx)),
  ]);
  const last4 = lastFour(card.truncated_card_number);
  const name = [holder.firstName, holder.lastName].filter(Boolean).join(' ') || holder.preferredName;
  return {
    ...optional('last4', last4),
    type: card.card_type,
    ...optional('holder', name || undefined),
  };
}

/**
 * What approvers of a card status change see: the card by its last four and type, its holder by
 * name, and the change from its current status to the target. A card the service does not know is
 * refused here, before anyone is asked.
 */
export async function cardStatusPreview(
  input: { cardholderId: string; walletId: string; cardId: string; status: string },
  ctx: ToolContext,
): Promise<Preview> {
  const [card, holder] = await Promise.all([
    ctx.client.issuingB.getCardDetails(cardRef(input), readOptions(ctx)),
    ctx.client.issuingB.getCardholder({ cardholderHashId: input.cardholderId }, readOptions(ctx)),
  ]);
  const last4 = lastFour(card.truncated_card_number);
  const name = [holder.firstName, holder.lastName].filter(Boolean).join(' ') || holder.preferredName;
  const permanent = PERMANENT_STATUSES.includes(input.status);
  const facts: PreviewFacts = {
    kind: 'card_status',
    family: 'B',
    cardId: input.cardId,
    ...optional('last4', last4),
    cardType: card.card_type,
    holder: name,
    from: card.status,
    to: input.status,
    permanent,
  };
  const which = `${card.card_type.toLowerCase()} card ${last4 === undefined ? input.cardId : `••••${last4}`} of ${name}`;
  return {
    summary: `Set the ${which} from ${card.status} to ${input.status}${permanent ? ' (permanent: it can never be used again)' : ''}`,
    facts,
    details: {
      cardId: input.cardId,
      truncatedCardNumber: card.truncated_card_number,
      status: card.status,
      cardType: card.card_type,
    },
  };
}

import { z } from 'zod';
import type { ToolHints } from '../../core/tool.js';
import { idString } from '../shared/ids.js';

/** Identity inputs and hints shared by the family B tools (call options: ../shared/call-options.ts). */

export { FAMILY_B } from '../shared/families.js';

const id = idString();

// The service takes the cardholder as `x-cardholder-id` on wallet and card endpoints and as
// `x-cardholderHash-id` on cardholder and KYC endpoints; both carry the same id, so users see one field.
// Ids say only what they are: where each comes from is in the tools' descriptions (list_wallets_b,
// list_cards_b) and said once to assistants; no format is promised (the sandbox's `chb_…` is its own).
export const cardholderIdField = id.describe('Cardholder id.');
const walletIdField = id.describe('Wallet id.');
const cardIdField = id.describe('Card id.');

export const walletInput = { cardholderId: cardholderIdField, walletId: walletIdField };
export const cardInput = { ...walletInput, cardId: cardIdField };

export const pageField = z.number().int().positive().optional().describe('Page, from 1.');
export const sizeField = z.number().int().positive().optional().describe('Per page (default 10).');

export const READ: ToolHints = { readOnly: true, destructive: false, idempotent: true, openWorld: true };
/** A change whose repeat has no further effect (PATCH-style). */
export const UPDATE: ToolHints = { readOnly: false, destructive: false, idempotent: true, openWorld: true };
/** Creates something new each time it is called. */
export const CREATE: ToolHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/**
 * GETs that hand out a secret link (full card details, PIN setting): not read-only, so a read-only
 * mode or a viewer never hands one out; each call gives a fresh link.
 */
export const SECRET_LINK: ToolHints = {
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
};

export const cardRef = (input: { cardholderId: string; walletId: string; cardId: string }) => ({
  cardholderId: input.cardholderId,
  walletId: input.walletId,
  cardId: input.cardId,
});

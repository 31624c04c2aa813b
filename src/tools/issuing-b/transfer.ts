import { z } from 'zod';
import type { Wallet } from '../../core/client/schemas/issuing-common.js';
import { CodedError, ErrorCode } from '../../core/errors.js';
import { formatAmount, fromMinor, toMinor } from '../../core/money.js';
import { defineTool, type Money, type ToolContext } from '../../core/tool.js';
import { type BalanceFacts, insufficient, minorUnitsIssue } from '../banking/balance.js';
import { beforeSending } from '../shared/before-sending.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { cardholderIdField, FAMILY_B } from './fields.js';

/**
 * The transfer body has no currency: the service debits the sender's wallet (the sandbox its first,
 * oldest wallet) in that wallet's currency. Policy thresholds and approvers need the currency before
 * anything is sent, so the tool takes it as an input (USD when omitted) and both the preview and
 * the run refuse when the debited wallet is in another currency. Nothing is sent in that case.
 */
class TransferCurrencyError extends CodedError {
  constructor(message: string) {
    super({ code: ErrorCode.NotSent, message });
    this.name = 'TransferCurrencyError';
  }
}

const DEFAULT_CURRENCY = 'USD';

const input = z
  .object({
    cardholderId: cardholderIdField.describe('Cardholder id of the sender.'),
    email: z.email().describe('E-mail of the receiving cardholder.'),
    amount: z.number().positive().describe('In currency units, e.g. 25.5 (at most 2 decimals).'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be a 3-letter upper-case currency code, e.g. USD')
      .optional()
      .describe("The sender's wallet currency (default USD), checked before sending."),
    description: z.string().min(1).describe("Reason, shown in both wallets' history."),
  })
  .superRefine((value, ctx) => {
    const issue = minorUnitsIssue(value.amount, value.currency ?? DEFAULT_CURRENCY);
    if (issue !== undefined) ctx.addIssue(issue);
  });
type Input = z.infer<typeof input>;

const moneyOf = (i: Input): Money => ({ amount: i.amount, currency: i.currency ?? DEFAULT_CURRENCY });

/** The wallet the transfer debits, checked against the currency the approvers and policy saw. */
async function debitedWallet(i: Input, ctx: ToolContext): Promise<Wallet> {
  const wallets = await ctx.client.issuingB.listWallets({ cardholderId: i.cardholderId }, readOptions(ctx));
  const wallet = wallets[0];
  const { currency } = moneyOf(i);
  if (wallet === undefined) throw new TransferCurrencyError(`cardholder ${i.cardholderId} has no wallet`);
  if (wallet.currency !== currency) {
    throw new TransferCurrencyError(
      `currency: the transfer would debit wallet ${wallet.id} in ${wallet.currency}, not ${currency}; give currency ${wallet.currency}`,
    );
  }
  return wallet;
}

/** The sender's wallet now and after the transfer; a transfer its balance cannot cover is refused. */
function walletBalance(wallet: Wallet, money: Money): BalanceFacts {
  const available = { amount: wallet.amount, currency: wallet.currency };
  if (toMinor(available) < toMinor(money)) throw insufficient(`wallet ${wallet.id}`, money, available);
  return { available, after: fromMinor(toMinor(available) - toMinor(money), money.currency) };
}

export const transferWalletFunds = defineTool({
  name: 'transfer_wallet_funds',
  title: 'Transfer between wallets (family B)',
  description: `${FAMILY_B} Moves money from a cardholder's wallet to another cardholder's wallet of that currency, found by e-mail. Usually needs approval; undone only by a transfer back.`,
  toolset: 'issuing_b',
  input,
  output: z.object({
    transferId: z.string().describe("Transfer reference; each wallet's history shows it as txn_ref_id."),
    amount: z.number().describe('Amount moved, in currency units.'),
    currency: z.string().describe('Currency of the debited wallet.'),
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  money: moneyOf,
  async preview(i, ctx) {
    const [wallet, holder] = await Promise.all([
      debitedWallet(i, ctx),
      ctx.client.issuingB.getCardholder({ cardholderHashId: i.cardholderId }, readOptions(ctx)),
    ]);
    const money = moneyOf(i);
    const balance = walletBalance(wallet, money);
    const name = [holder.firstName, holder.lastName].filter(Boolean).join(' ') || holder.preferredName;
    return {
      summary: `Transfer ${formatAmount(money)} from ${name} (${i.cardholderId}, wallet ${wallet.id}) to ${i.email}: ${i.description}`,
      facts: {
        kind: 'wallet_transfer',
        cardholderId: i.cardholderId,
        holder: name,
        to: i.email,
        amount: money,
        description: i.description,
        balance,
      },
      details: {
        senderCardholderId: i.cardholderId,
        senderWalletId: wallet.id,
        senderBalance: wallet.amount,
        receiverEmail: i.email,
        amount: money.amount,
        currency: money.currency,
        description: i.description,
      },
      // No `bound`: a transfer has no quote, so there is no fresh quote to hold to one.
    };
  },
  async check(i, ctx) {
    walletBalance(await debitedWallet(i, ctx), moneyOf(i));
  },
  async run(i, ctx) {
    const { currency } = await beforeSending('reading the wallet to debit', () => debitedWallet(i, ctx));
    const result = await ctx.client.issuingB.transfer(
      { cardholderId: i.cardholderId },
      { email: i.email, amount: i.amount, description: i.description },
      writeOptions(ctx),
    );
    return { transferId: result.id, amount: i.amount, currency };
  },
});

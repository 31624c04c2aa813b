import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { money, parseInput } from '../../validate.js';
import { MoneyAmount } from './amount.js';
import { walletHistory } from './history.js';
import { activeHolder, assertActive, cardOf, walletOf } from './identity.js';
import { post } from './ledger.js';
import { control, HOLDER, hb2, WALLET } from './route.js';
import type { Cardholder, IssuingBState, Wallet } from './state.js';
import { walletView } from './views.js';

const text = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((v) => v.trim() !== '', 'must not be blank');

const CreateWalletBody = z.object({
  currency: text().refine(
    (v) => /^[A-Z]{3}$/.test(v),
    'must be a 3-letter currency code in capitals (e.g. USD)',
  ),
});

const TransferBody = z.object({
  email: text(),
  amount: MoneyAmount,
  description: text(),
});

const LoadBody = z.object({ amount: MoneyAmount });

const walletsOf = (s: IssuingBState, holder: Cardholder): Wallet[] =>
  [...s.wallets.values()].filter((w) => w.cardholderId === holder.id);

const eventScope = (holder: Cardholder) => ({
  agentCode: holder.agentCode,
  subagentCode: holder.subagentCode,
});

export function walletRoutes(ctx: SandboxContext, state: () => IssuingBState): RouteDef[] {
  const programCode = ctx.credentials.programCode;
  return [
    hb2({
      operation: 'issuingB.createWallet',
      method: 'POST',
      path: '/wallet',
      requiredHeaders: HOLDER,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const holder = activeHolder(req, s);
        const { currency } = parseInput(CreateWalletBody, req.body);
        const wallet: Wallet = {
          id: ctx.newId('wal'),
          cardholderId: holder.id,
          currency,
          balance: 0,
          createdAt: ctx.clock.now(),
          history: [],
        };
        s.wallets.set(wallet.id, wallet);
        ctx.events.emit({
          eventName: 'wallet_create',
          data: { walletId: wallet.id, cardholderId: holder.id, currency },
          ...eventScope(holder),
        });
        return { message: 'Wallet created successfully', data: [walletView(wallet)] };
      },
    }),
    hb2({
      operation: 'issuingB.listWallets',
      method: 'GET',
      path: '/wallet',
      requiredHeaders: HOLDER,
      handler: (req) => {
        const s = state();
        return { data: walletsOf(s, activeHolder(req, s)).map(walletView) };
      },
    }),
    hb2({
      operation: 'issuingB.walletHistory',
      method: 'GET',
      path: '/wallet/history',
      requiredHeaders: WALLET,
      handler: (req) => {
        const s = state();
        const wallet = walletOf(req, s, activeHolder(req, s));
        const card = req.header('x-card-id') === undefined ? undefined : cardOf(req, s, wallet);
        return { data: walletHistory(req, wallet, card) };
      },
    }),
    hb2({
      operation: 'issuingB.transfer',
      method: 'POST',
      path: '/wallet/transfer',
      requiredHeaders: HOLDER,
      idempotent: true,
      handler: (req) => {
        const s = state();
        const sender = activeHolder(req, s);
        const body = parseInput(TransferBody, req.body);
        const from = walletsOf(s, sender)[0];
        if (from === undefined) throw invalid(`cardholder '${sender.id}' has no wallet to transfer from`);
        // The spec does not make cardholder emails unique; a receiver must still be unambiguous.
        const matches = [...s.cardholders.values()].filter(
          (h) => h.fields.email.toLowerCase() === body.email.toLowerCase(),
        );
        const receiver = matches[0];
        if (receiver === undefined)
          throw invalid(`email: no family B cardholder has the email '${body.email}'`);
        if (matches.length > 1) {
          throw invalid(
            `email: ${matches.length} cardholders share the email '${body.email}'; the receiver is ambiguous`,
          );
        }
        if (receiver.id === sender.id)
          throw invalid('email: the receiver must be another cardholder than the sender');
        assertActive(receiver, 'receiving cardholder');
        const to = walletsOf(s, receiver).find((w) => w.currency === from.currency);
        if (to === undefined) throw invalid(`email: the receiver has no ${from.currency} wallet`);
        if (from.balance < body.amount) {
          throw invalid(
            `amount: insufficient balance: wallet '${from.id}' holds ${money(from.balance).toFixed(2)} ${from.currency}, the transfer needs ${body.amount.toFixed(2)}`,
          );
        }
        const refId = ctx.newId('p2p');
        const common = {
          type: 'P2P',
          amount: body.amount,
          at: ctx.clock.now(),
          refId,
          programCode,
          description: body.description,
          initiatedBy: 'CARDHOLDER',
        };
        post(s, from, { ...common, direction: 'DEBIT', email: receiver.fields.email });
        post(s, to, { ...common, direction: 'CREDIT', email: sender.fields.email });
        ctx.events.emit({
          eventName: 'p2p_transfer',
          data: {
            id: refId,
            senderCardholderId: sender.id,
            senderWalletId: from.id,
            receiverCardholderId: receiver.id,
            receiverWalletId: to.id,
            amount: body.amount,
            currency: from.currency,
          },
          ...eventScope(sender),
        });
        return { message: 'Transfer successful', data: [{ id: refId }] };
      },
    }),
    // Funding from the program's master account is outside the spec's endpoints; this stands in for it.
    control('loadWallet', '/wallets/:id/load', (req) => {
      const s = state();
      const id = req.params.id ?? '';
      const wallet = s.wallets.get(id);
      if (wallet === undefined) throw invalid(`wallet '${id}' not found`);
      const { amount } = parseInput(LoadBody, req.body);
      const refId = ctx.newId('m2p');
      post(s, wallet, {
        type: 'M2P',
        direction: 'CREDIT',
        amount,
        at: ctx.clock.now(),
        refId,
        programCode,
        description: 'Wallet load from program account',
      });
      const holder = s.cardholders.get(wallet.cardholderId);
      ctx.events.emit({
        eventName: 'm2p_transfer',
        data: {
          id: refId,
          walletId: wallet.id,
          cardholderId: wallet.cardholderId,
          amount,
          currency: wallet.currency,
        },
        ...(holder === undefined ? {} : eventScope(holder)),
      });
      return {
        status: 'success',
        id: refId,
        walletId: wallet.id,
        balance: wallet.balance,
        currency: wallet.currency,
      };
    }),
  ];
}

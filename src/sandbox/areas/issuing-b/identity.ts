import { invalid } from '../../errors.js';
import type { SandboxRequest } from '../../types.js';
import { type Card, type Cardholder, type IssuingBState, PERMANENT_STATUSES, type Wallet } from './state.js';

/**
 * Resolves the identity headers of a request and checks they are consistent: the wallet must
 * belong to the cardholder and the card to the wallet. Each failure names the header.
 */
function header(req: SandboxRequest, name: string): string {
  const value = req.header(name);
  if (value === undefined || value.trim() === '') throw invalid(`missing required header ${name}`);
  return value.trim();
}

/** The cardholder of `x-cardholderHash-id` (KYC and cardholder endpoints), active or not. */
export function holderByHash(req: SandboxRequest, state: IssuingBState): Cardholder {
  const id = header(req, 'x-cardholderHash-id');
  const holder = state.cardholders.get(id);
  if (holder === undefined) throw invalid(`x-cardholderHash-id: cardholder '${id}' not found`);
  return holder;
}

/**
 * The cardholder of Activate Cardholder, whose headers the spec does not show: named by
 * `x-cardholderHash-id` (as on the other cardholder endpoints) or `x-cardholder-id` (as on the
 * wallet and card endpoints). One is required; both may be sent if they name the same cardholder.
 */
export function holderByEitherId(req: SandboxRequest, state: IssuingBState): Cardholder {
  const hash = req.header('x-cardholderHash-id')?.trim() || undefined;
  const plain = req.header('x-cardholder-id')?.trim() || undefined;
  if (hash === undefined && plain === undefined) {
    throw invalid('missing required header x-cardholderHash-id or x-cardholder-id (send one of them)');
  }
  if (hash !== undefined && plain !== undefined && hash !== plain) {
    throw invalid('x-cardholderHash-id and x-cardholder-id name different cardholders; send one of them');
  }
  const [name, id] = hash !== undefined ? ['x-cardholderHash-id', hash] : ['x-cardholder-id', plain ?? ''];
  const holder = state.cardholders.get(id);
  if (holder === undefined) throw invalid(`${name}: cardholder '${id}' not found`);
  return holder;
}

/** The cardholder of `x-cardholder-id`; wallet and card functions need an active cardholder. */
export function activeHolder(req: SandboxRequest, state: IssuingBState): Cardholder {
  const id = header(req, 'x-cardholder-id');
  const holder = state.cardholders.get(id);
  if (holder === undefined) throw invalid(`x-cardholder-id: cardholder '${id}' not found`);
  assertActive(holder);
  return holder;
}

export function assertActive(holder: Cardholder, who = 'cardholder'): void {
  if (!holder.active) {
    throw invalid(
      `${who} is deactivated: '${holder.id}' must be activated with POST /cardholder/activate first`,
    );
  }
}

export function walletOf(req: SandboxRequest, state: IssuingBState, holder: Cardholder): Wallet {
  const id = header(req, 'x-wallet-id');
  const wallet = state.wallets.get(id);
  if (wallet === undefined) throw invalid(`x-wallet-id: wallet '${id}' not found`);
  if (wallet.cardholderId !== holder.id) {
    throw invalid(`x-wallet-id: wallet '${id}' does not belong to cardholder '${holder.id}'`);
  }
  return wallet;
}

export function cardOf(req: SandboxRequest, state: IssuingBState, wallet: Wallet): Card {
  const id = header(req, 'x-card-id');
  const card = state.cards.get(id);
  if (card === undefined) throw invalid(`x-card-id: card '${id}' not found`);
  if (card.walletId !== wallet.id) {
    throw invalid(`x-card-id: card '${id}' does not belong to wallet '${wallet.id}'`);
  }
  return card;
}

/** The three identity headers of a card endpoint, resolved and checked. */
export function cardRequest(
  req: SandboxRequest,
  state: IssuingBState,
): { holder: Cardholder; wallet: Wallet; card: Card } {
  const holder = activeHolder(req, state);
  const wallet = walletOf(req, state, holder);
  return { holder, wallet, card: cardOf(req, state, wallet) };
}

/** Only reads are allowed on a LOST, STOLEN or BLOCKED card (spec: permanently blocked). */
export function assertChangeable(card: Card): void {
  if (PERMANENT_STATUSES.has(card.status)) {
    throw invalid(`card '${card.id}' is permanently blocked (${card.status}); it cannot be changed or used`);
  }
}

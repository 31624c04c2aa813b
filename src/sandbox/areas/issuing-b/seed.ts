import type { SandboxContext } from '../../types.js';
import { cardNumber } from './card-number.js';
import { post } from './ledger.js';
import { defaultLimits } from './limits.js';
import { kycLink } from './links.js';
import type {
  Card,
  Cardholder,
  CardholderFields,
  CardStatus,
  IssuingBState,
  OtpMethod,
  Wallet,
} from './state.js';

/**
 * The demo data of docs/sandbox/issuing-b.md: three cardholders (one with KYC pending and an open
 * RFI, one deactivated), a USD wallet each with history, cards in every interesting state and a
 * small inventory of unassigned physical cards. Ids and dates are fixed so the docs can name them.
 */

const SINGAPORE_ADDRESS = {
  deliveryAddress1: '10 Marina Boulevard',
  deliveryAddress2: '#12-01 Tower 2',
  deliveryCity: 'Singapore',
  deliveryState: 'Singapore',
  deliveryCountry: 'SG',
  deliveryZipCode: '018983',
  billingAddress1: '10 Marina Boulevard',
  billingAddress2: '#12-01 Tower 2',
  billingCity: 'Singapore',
  billingState: 'Singapore',
  billingCountry: 'SG',
  billingZipCode: '018983',
};

const ALICE: CardholderFields = {
  title: 'Miss',
  firstName: 'Alice',
  lastName: 'Tan',
  preferredName: 'ALICE TAN',
  gender: 'F',
  dateOfBirth: '1990-04-12',
  mobileCountryName: 'SG',
  mobileCountryCode: '65',
  mobile: '91234567',
  nationality: 'SG',
  email: 'alice.tan@cards.demo.bankops.test',
  ...SINGAPORE_ADDRESS,
  kycProviderName: 'SUMSUB',
  kycReferenceId: 'sumsub-applicant-5f1c2e',
};

const BRUNO: CardholderFields = {
  title: 'Mr',
  firstName: 'Bruno',
  middleName: 'Costa',
  lastName: 'Silva',
  preferredName: 'BRUNO SILVA',
  gender: 'M',
  dateOfBirth: '1985-11-03',
  mobileCountryName: 'BR',
  mobileCountryCode: '55',
  mobile: '11987654321',
  nationality: 'BR',
  email: 'bruno.silva@cards.demo.bankops.test',
  deliveryAddress1: 'Rua Augusta 1500',
  deliveryAddress2: 'Apto 42',
  deliveryCity: 'Sao Paulo',
  deliveryState: 'SP',
  deliveryCountry: 'BR',
  deliveryZipCode: '01304-001',
  billingAddress1: 'Rua Augusta 1500',
  billingAddress2: 'Apto 42',
  billingCity: 'Sao Paulo',
  billingState: 'SP',
  billingCountry: 'BR',
  billingZipCode: '01304-001',
};

const CHLOE: CardholderFields = {
  title: 'Mrs',
  firstName: 'Chloe',
  lastName: 'Martin',
  preferredName: 'CHLOE MARTIN',
  gender: 'F',
  dateOfBirth: '1978-06-21',
  mobileCountryCode: '33',
  mobile: '612345678',
  nationality: 'FR',
  email: 'chloe.martin@cards.demo.bankops.test',
  ...SINGAPORE_ADDRESS,
};

const MERCHANTS = ['GRAB SINGAPORE', 'NTUC FAIRPRICE', 'AMAZON WEB SERVICES', 'STARBUCKS', 'SHOPEE SG'];

const at = (iso: string): Date => new Date(`${iso}Z`);

export function seedIssuingB(ctx: SandboxContext): IssuingBState {
  const state: IssuingBState = {
    cardholders: new Map(),
    wallets: new Map(),
    cards: new Map(),
    inventory: [
      { number: cardNumber('10001', '2468'), code: 'K7Q2-9XMA' },
      { number: cardNumber('10002', '1357'), code: 'P4W8-2ZRT' },
      { number: cardNumber('10003', '9753'), code: 'H3N6-5LCE' },
      { number: cardNumber('10004', '8642'), code: 'D9B1-7VGU' },
    ],
    txnSeq: 0,
  };
  const { agentCode, subagentCode, programCode } = ctx.credentials;

  const holder = (id: string, fields: CardholderFields, created: string, active = true): Cardholder => {
    const h: Cardholder = {
      id,
      fields,
      createdAt: at(created),
      active,
      agentCode,
      subagentCode,
      kyc: { status: 'COMPLETED', complianceStatus: 'COMPLETED', link: '' },
    };
    state.cardholders.set(id, h);
    return h;
  };
  const wallet = (id: string, h: Cardholder, created: string): Wallet => {
    const w: Wallet = {
      id,
      cardholderId: h.id,
      currency: 'USD',
      balance: 0,
      createdAt: at(created),
      history: [],
    };
    state.wallets.set(id, w);
    return w;
  };
  const card = (
    id: string,
    w: Wallet,
    spec: { type: Card['type']; status: CardStatus; middle: string; last4: string; created: string },
    extra: { pinSet?: boolean; primary?: boolean; threeDs?: OtpMethod } = {},
  ): Card => {
    const c: Card = {
      id,
      cardholderId: w.cardholderId,
      walletId: w.id,
      type: spec.type,
      status: spec.status,
      number: cardNumber(spec.middle, spec.last4),
      numberId: `cn_${id.replace(/^card_/, '')}`,
      createdAt: at(spec.created),
      isPrimary: extra.primary ?? false,
      pinSet: extra.pinSet ?? false,
      cardPresentEnabled: true,
      threeDs: extra.threeDs ?? 'EMAIL',
      limits: defaultLimits(),
    };
    state.cards.set(id, c);
    return c;
  };
  const load = (w: Wallet, amount: number, when: string, ref: string): void => {
    post(state, w, {
      type: 'M2P',
      direction: 'CREDIT',
      amount,
      at: at(when),
      refId: ref,
      programCode,
      description: 'Wallet load from program account',
    });
  };

  // Alice: KYC done through her own provider; four cards, one per interesting state.
  const alice = holder('chb_demo_alice', ALICE, '2026-09-01T08:00:00');
  const aliceUsd = wallet('wal_demo_alice_usd', alice, '2026-09-01T08:05:00');
  const aliceVirtual = card(
    'card_demo_alice_virtual',
    aliceUsd,
    { type: 'VIRTUAL', status: 'ACTIVE', middle: '20001', last4: '4821', created: '2026-09-01T08:10:00' },
    { pinSet: true, primary: true },
  );
  const aliceLocked = card('card_demo_alice_locked', aliceUsd, {
    type: 'VIRTUAL',
    status: 'LOCKED',
    middle: '20002',
    last4: '5932',
    created: '2026-09-02T10:00:00',
  });
  card('card_demo_alice_physical', aliceUsd, {
    type: 'PHYSICAL',
    status: 'INACTIVE',
    middle: '20003',
    last4: '6043',
    created: '2026-09-03T11:00:00',
  });
  card('card_demo_alice_stolen', aliceUsd, {
    type: 'VIRTUAL',
    status: 'STOLEN',
    middle: '20004',
    last4: '7154',
    created: '2026-09-04T12:00:00',
  });

  // Bruno: KYC pending with an open RFI.
  const bruno = holder('chb_demo_bruno', BRUNO, '2026-09-10T09:00:00');
  bruno.kyc = {
    status: 'PENDING',
    complianceStatus: 'IN_PROGRESS',
    link: kycLink(),
    rfi: {
      servicesDeclinedCodes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_IMAGE_BLURRED'] },
      declinedReason: 'Proof of address is older than three months and the ID photo is unreadable',
      responded: false,
    },
  };
  const brunoUsd = wallet('wal_demo_bruno_usd', bruno, '2026-09-10T09:05:00');
  const brunoVirtual = card(
    'card_demo_bruno_virtual',
    brunoUsd,
    { type: 'VIRTUAL', status: 'ACTIVE', middle: '30001', last4: '3310', created: '2026-09-10T09:10:00' },
    { primary: true, threeDs: 'SMS' },
  );

  // Chloe: deactivated, to show POST /cardholder/activate.
  const chloe = holder('chb_demo_chloe', CHLOE, '2026-09-15T07:30:00', false);
  const chloeUsd = wallet('wal_demo_chloe_usd', chloe, '2026-09-15T07:35:00');
  const chloeVirtual = card(
    'card_demo_chloe_virtual',
    chloeUsd,
    { type: 'VIRTUAL', status: 'ACTIVE', middle: '40001', last4: '1199', created: '2026-09-15T07:40:00' },
    { primary: true },
  );

  load(aliceUsd, 20_000, '2026-09-30T09:00:00', 'txn_seed_alice_load');
  load(brunoUsd, 1_000, '2026-09-30T09:00:00', 'txn_seed_bruno_load');
  load(chloeUsd, 200, '2026-09-30T09:00:00', 'txn_seed_chloe_load');

  // Thirty days of activity on Alice's wallet (1-30 October 2026), mostly on her two virtual cards.
  for (let day = 1; day <= 30; day += 1) {
    const when = `2026-10-${String(day).padStart(2, '0')}T10:${String(day).padStart(2, '0')}:00`;
    const ref = `txn_seed_alice_${String(day).padStart(3, '0')}`;
    const base = { at: at(when), refId: ref, programCode, direction: 'DEBIT' as const };
    if (day % 10 === 0) {
      post(state, aliceUsd, { ...base, type: 'FEE', amount: 5, description: 'Monthly wallet fee' });
    } else if (day === 15) {
      const p2p = { ...base, type: 'P2P', amount: 250, description: 'Dinner share' };
      post(state, aliceUsd, { ...p2p, email: BRUNO.email, initiatedBy: 'CARDHOLDER' });
      post(state, brunoUsd, { ...p2p, direction: 'CREDIT', email: ALICE.email, initiatedBy: 'CARDHOLDER' });
    } else if (day % 7 === 0) {
      post(state, aliceUsd, { ...base, type: 'fee_SCTF', amount: 1.5, card: aliceVirtual });
    } else {
      const onLocked = day % 4 === 0;
      post(state, aliceUsd, {
        ...base,
        type: 'deduction',
        amount: 12.35 * (day % 6) + 20,
        card: onLocked ? aliceLocked : aliceVirtual,
        merchant: MERCHANTS[day % MERCHANTS.length] ?? 'MERCHANT',
        status: 'APPROVED',
        initiatedBy: 'CARDHOLDER',
      });
    }
  }
  post(state, aliceUsd, {
    at: at('2026-10-31T18:00:00'),
    refId: 'txn_seed_alice_031',
    programCode,
    direction: 'DEBIT',
    type: 'fee_PERTXN',
    amount: 0.5,
    card: aliceVirtual,
  });

  for (let i = 1; i <= 4; i += 1) {
    post(state, brunoUsd, {
      at: at(`2026-10-${String(i * 5).padStart(2, '0')}T14:00:00`),
      refId: `txn_seed_bruno_${String(i).padStart(3, '0')}`,
      programCode,
      direction: 'DEBIT',
      type: 'deduction',
      amount: 40 * i,
      card: brunoVirtual,
      merchant: MERCHANTS[i] ?? 'MERCHANT',
      status: 'APPROVED',
      initiatedBy: 'CARDHOLDER',
    });
  }
  post(state, chloeUsd, {
    at: at('2026-10-02T12:00:00'),
    refId: 'txn_seed_chloe_001',
    programCode,
    direction: 'DEBIT',
    type: 'deduction',
    amount: 50,
    card: chloeVirtual,
    merchant: 'STARBUCKS',
    status: 'APPROVED',
    initiatedBy: 'CARDHOLDER',
  });
  return state;
}

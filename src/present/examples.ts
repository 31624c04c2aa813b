/**
 * One example input per tool, with ids of the embedded sandbox's seed (docs/sandbox.md), so the
 * example a help page shows works as typed on a fresh sandbox. Front ends turn it into their own
 * syntax (`bankops call <tool> key=value …`, `/bank <tool> key=value …`) with `exampleArgs`.
 *
 * A value in angle brackets (`<payoutId from create_payout>`) is one the sandbox cannot know in
 * advance: the id a previous call returned. `placeholders` lists the fields that hold one.
 */

export interface ToolExample {
  input: Record<string, unknown>;
  /** What the example shows, when the input alone does not say it. */
  note?: string;
}

const ALICE_CARD = {
  cardholderId: 'chb_demo_alice',
  walletId: 'wal_demo_alice_usd',
  cardId: 'card_demo_alice_virtual',
};

const USD_PAYOUT = {
  beneficiaryId: 'ben_us_ach_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'ACH',
  amount: 1000,
  side: 'SOURCE',
};

const EXAMPLES: Record<string, ToolExample> = {
  check_credentials: { input: {} },
  get_user: { input: { email: 'treasury@demo.bankops.test' } },
  list_accounts: { input: { currency: 'USD' } },
  get_account: { input: { accountId: 'acc_usd_0001' } },
  get_balances: { input: {} },
  get_account_balance: { input: { accountId: 'acc_eur_0001' } },
  list_beneficiary_options: { input: { currency: 'USD' } },
  get_beneficiary_schema: { input: { currency: 'USD', entityType: 'INDIVIDUAL', paymentMethod: 'LOCAL' } },
  create_beneficiary: {
    input: {
      entityType: 'INDIVIDUAL',
      firstName: 'John',
      lastName: 'Smith',
      currency: 'USD',
      country: 'US',
      email: 'john.smith@example.com',
      address: {
        country: 'US',
        city: 'Austin',
        streetAddress: '500 Congress Ave',
        postalCode: '78701',
        state: 'TX',
      },
      bank: {
        bankCountry: 'US',
        accountCurrency: 'USD',
        accountHolder: 'John Smith',
        bankName: 'Bank of America',
        bankAddress: '100 N Tryon St, Charlotte, NC 28255',
        accountNumber: '4402718835',
        routingCodeType: 'ach',
        routingCodeValue: '111000025',
        swiftCode: 'BOFAUS3N',
        extras: { clearingSystem: 'ACH' },
      },
      extras: { paymentMethod: 'LOCAL' },
    },
    note: 'Nested fields take dotted keys; get_beneficiary_schema lists what a corridor needs.',
  },
  quote_conversion: {
    input: { sourceAssetCode: 'USD', targetAssetCode: 'EUR', amount: 1000, side: 'SOURCE' },
  },
  get_conversion: { input: { conversionId: '<conversionId from create_conversion>' } },
  quote_payout: { input: USD_PAYOUT },
  get_payout: { input: { payoutId: '<payoutId from create_payout>' } },
  create_payout: {
    input: { ...USD_PAYOUT, purposeCode: 'GOODS_PURCHASED' },
    note: 'Waits for an approver (bankops approvals approve <id>) under the shipped policy.',
  },
  create_conversion: {
    input: { sourceAssetCode: 'USD', targetAssetCode: 'EUR', amount: 1000, side: 'SOURCE' },
    note: 'Waits for an approver under the shipped policy.',
  },
  create_balance_alert: {
    input: { currency: 'EUR', amount: 20000, channel: 'C0123ABCD' },
    note: 'Posted by bankops serve with Slack on.',
  },
  list_balance_alerts: { input: {} },
  delete_balance_alert: { input: { id: '<id from list_balance_alerts>' } },
  name_payee: {
    input: { beneficiaryId: 'ben_us_ach_0001', name: 'Acme Corp' },
    note: 'Waits for an approver under the shipped policy; starts the payee cooling-off.',
  },
  verify_payee: {
    input: {
      payee: 'ben_us_ach_0001',
      method: 'callback',
      contact: '+1 555 0100 2233',
      note: 'Jane Doe in accounts payable confirmed the account ending 6789',
    },
    note: 'Needs the role verifier, which the shipped policy gives nobody (give it under actors); not by whoever created or named the payee.',
  },

  create_cardholder_a: {
    input: {
      email: 'dana.lee@example.test',
      mobile_number: '81234567',
      date_of_birth: '1992-05-17',
      first_name: 'Dana',
      last_name: 'Lee',
      line1: '1 Raffles Place',
      city: 'Singapore',
      state: 'Singapore',
      country: 'SG',
      postcode: '048616',
    },
  },
  list_cardholders_a: { input: {} },
  get_cardholder_a: { input: { cardholderId: 'cha_demo_ava' } },
  update_cardholder_a: {
    input: { cardholderId: 'cha_demo_ava', mobile_number: '91234567', country_code: 'SG' },
  },
  create_card_a: { input: { cardholderId: 'cha_demo_chloe', currency: 'USD' } },
  assign_card_a: {
    input: { cardholderId: 'cha_demo_chloe', card_number: '5300001000000012', card_currency: 'USD' },
  },
  activate_card_a: {
    input: { cardId: '<cardId from assign_card_a>', activation_code: '739215', pin: '2580' },
    note: 'Activates the physical card assign_card_a gave Chloe (inventory card 5300001000000012).',
  },
  reset_pin_a: { input: { cardId: 'card_demo_ava_physical', pin: '2580' } },
  create_wallet_a: { input: { cardholderId: 'cha_demo_chloe', currency: 'USD' } },
  list_wallets_a: { input: { cardholderId: 'cha_demo_ava' } },
  get_wallet_history_a: { input: { cardholderId: 'cha_demo_ava', walletId: 'wal_demo_ava_usd', size: 5 } },
  get_kyc_a: { input: { cardholderId: 'cha_demo_ben' } },
  get_rfi_a: { input: { cardholderId: 'cha_demo_ben' } },
  respond_rfi_a: { input: { cardholderId: 'cha_demo_ben' } },
  list_card_transactions_a: { input: { cardId: 'card_demo_ava_virtual', page_size: 5 } },

  create_cardholder_b: {
    input: {
      title: 'Mr',
      firstName: 'Daniel',
      lastName: 'Okafor',
      preferredName: 'DANIEL OKAFOR',
      gender: 'M',
      dateOfBirth: '1992-02-29',
      mobileCountryCode: '65',
      mobile: '81234567',
      nationality: 'NG',
      email: 'daniel.okafor@example.com',
      deliveryAddress1: 'Blk 123 Tower A',
      deliveryAddress2: '05-12 Main St',
      deliveryCity: 'Singapore',
      deliveryState: 'Singapore',
      deliveryCountry: 'SG',
      deliveryZipCode: '123456',
      billingAddress1: 'Blk 123 Tower A',
      billingAddress2: '05-12 Main St',
      billingCity: 'Singapore',
      billingState: 'Singapore',
      billingCountry: 'SG',
      billingZipCode: '123456',
    },
  },
  get_cardholder_b: { input: { cardholderId: 'chb_demo_alice' } },
  update_cardholder_b: { input: { cardholderId: 'chb_demo_alice', mobile: '91234567' } },
  activate_cardholder_b: { input: { cardholderId: 'chb_demo_chloe' } },
  create_wallet_b: { input: { cardholderId: 'chb_demo_alice', currency: 'EUR' } },
  list_wallets_b: { input: { cardholderId: 'chb_demo_alice' } },
  get_wallet_history_b: {
    input: { cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd', size: 5 },
  },
  transfer_wallet_funds: {
    input: {
      cardholderId: 'chb_demo_alice',
      email: 'bruno.silva@cards.demo.bankops.test',
      amount: 25,
      currency: 'USD',
      description: 'Team lunch',
    },
    note: 'Waits for an approver under the shipped policy.',
  },
  create_card_b: { input: { cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd' } },
  assign_card_b: {
    input: {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      last_four_digit: '2468',
      code: 'K7Q2-9XMA',
    },
  },
  list_cards_b: { input: { cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd' } },
  activate_card_b: { input: { ...ALICE_CARD, cardId: 'card_demo_alice_physical' } },
  get_card_details_b: { input: ALICE_CARD },
  get_card_details_link_b: { input: ALICE_CARD },
  update_card_status_b: {
    input: { ...ALICE_CARD, status: 'LOCKED' },
    note: 'LOST, STOLEN and BLOCKED are permanent and wait for an approver under the shipped policy.',
  },
  get_set_pin_link_b: { input: ALICE_CARD },
  get_reset_pin_link_b: { input: ALICE_CARD },
  get_change_pin_link_b: { input: ALICE_CARD },
  get_card_configuration_b: { input: ALICE_CARD },
  update_card_configuration_b: { input: { ...ALICE_CARD, card_present_transaction_enabled: false } },
  enroll_3ds_b: { input: { ...ALICE_CARD, otp_delivery_method: 'SMS' } },
  get_3ds_b: { input: ALICE_CARD },
  update_3ds_b: { input: { ...ALICE_CARD, otp_delivery_method: 'SMS' } },
  unenroll_3ds_b: { input: ALICE_CARD },
  get_spend_limits_b: { input: ALICE_CARD },
  update_spend_limit_b: {
    input: { ...ALICE_CARD, transaction_type: 'PURCHASE', amount_limit_period: 'DAY', amount_limit: 2000 },
  },
  get_kyc_b: { input: { cardholderId: 'chb_demo_bruno' } },
  get_rfi_b: { input: { cardholderId: 'chb_demo_bruno' } },
  respond_rfi_b: { input: { cardholderId: 'chb_demo_bruno' } },

  list_webhook_events: { input: {} },
  create_subscription: {
    input: {
      event_name: 'card_create',
      subscription_type: 'w',
      webhook_url: 'https://hooks.example.com/bankops',
      x_api_key: 'hook-key-0001',
    },
  },
  list_subscriptions: { input: {} },
  update_subscription: {
    input: { event_name: 'kyc_complete', subscription_type: 'n', sender_email: 'treasury@demo.bankops.test' },
  },
  delete_subscription: {
    input: { event_name: 'm2p_transfer' },
    note: 'Waits for an approver under the shipped policy.',
  },
  create_event_relay: {
    input: { event_name: 'card_create', channel: 'C0123ABCD' },
    note: 'Needs BANKOPS_PUBLIC_URL (where the service reaches `bankops serve`).',
  },

  get_approval: { input: { approvalId: '<approvalId from bankops approvals list>' } },
  list_approvals: { input: { state: 'pending' } },
  propose_policy: {
    input: { text: '<the whole policy text of next.yaml>', reason: 'treasury reorg' },
    note: 'Under governance only; `bankops policy propose next.yaml` reads the file for you.',
  },
};

/** The example of a tool; a tool without one (added in a test) gets its required fields as placeholders. */
export function toolExample(tool: string): ToolExample | undefined {
  return Object.hasOwn(EXAMPLES, tool) ? EXAMPLES[tool] : undefined;
}

/** Fields whose example value stands for an id a previous call returns. */
export function placeholders(example: ToolExample): string[] {
  return Object.entries(example.input)
    .filter(([, value]) => typeof value === 'string' && /^<.+>$/.test(value))
    .map(([key]) => key);
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whatWillHappen } from '../../src/present/approval-words.js';
import { pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

describe('what approvers of a wallet transfer read', () => {
  it('promises no quote check that the transfer never makes', async () => {
    const approval = pending(
      await core.call('transfer_wallet_funds', {
        cardholderId: 'chb_demo_alice',
        email: 'bob@example.com',
        amount: 10,
        description: 'lunch',
      }),
    );
    // A transfer has no quote: it moves exactly the amount asked, and its run checks no bound.
    const words = [...whatWillHappen(approval), approval.preview?.summary ?? ''].join('\n');
    expect(words).not.toMatch(/fresh quote/);
  });
});

import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { serviceFront } from '../helpers/service-front.js';

// Against a real service (here a loopback front that does not say it is a sandbox), `--as` names the
// requester of a call only; approvals are decided by the OS account, which can never approve what
// it asked for under another name.
let sandbox: RunningSandbox;
let front: Awaited<ReturnType<typeof serviceFront>>;
let home: ReturnType<typeof cliHome>;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  front = await serviceFront(sandbox.url);
  home = cliHome();
  const c = sandbox.credentials;
  env = {
    BANKOPS_DB: home.dbPath,
    BANKOPS_BASE_URL: front.url,
    BANKOPS_API_KEY: c.apiKey,
    BANKOPS_PRODUCT_ID: c.productId,
    BANKOPS_USER_ID: c.userId,
    BANKOPS_COMPANY_ID: c.companyId,
    BANKOPS_OUTPUT: 'json',
  };
});
afterAll(async () => {
  await front.close();
  await sandbox.close();
  home.cleanup();
});

const payout = JSON.stringify({
  beneficiaryId: 'ben_us_ach_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'ACH',
  amount: 1000,
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
});

describe('the CLI against a real service', () => {
  it('lets no OS account request under another name and then approve alone', async () => {
    const me = userInfo().username;
    const requested = await runCli(['call', 'create_payout', '--input', payout, '--as', `not-${me}`], env);
    expect(requested.json?.status, requested.stderr).toBe('pending_approval');
    const id = requested.json.approvalId as string;
    const approved = await runCli(['approvals', 'approve', id], env);
    expect({ code: approved.code, status: approved.json?.status }).toEqual({ code: 3, status: 'refused' });
    expect(approved.json?.approval?.state).toBe('pending');
    // Nor can it approve under a name of its choosing.
    const named = await runCli(['approvals', 'approve', id, '--as', 'someone-else'], env);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('approvals are decided as the OS account running bankops');
  });
});

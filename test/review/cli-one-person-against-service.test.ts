import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

/**
 * Against a service (not the embedded sandbox), `approvals approve` acts as the OS account, so that
 * one person cannot approve their own request. The request, though, is still named by `--as`.
 */
let sandbox: RunningSandbox;
let home: ReturnType<typeof cliHome>;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  home = cliHome();
  const c = sandbox.credentials;
  env = {
    BANKOPS_DB: home.dbPath,
    BANKOPS_BASE_URL: sandbox.url,
    BANKOPS_API_KEY: c.apiKey,
    BANKOPS_PRODUCT_ID: c.productId,
    BANKOPS_USER_ID: c.userId,
    BANKOPS_COMPANY_ID: c.companyId,
    BANKOPS_USER_EMAIL: c.userEmail,
    BANKOPS_PROGRAM_CODE: c.programCode,
    BANKOPS_AGENT_CODE: c.agentCode,
    BANKOPS_SUBAGENT_CODE: c.subagentCode,
  };
});
afterAll(async () => {
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

describe('review: one OS account, alone, against a real service', () => {
  it('cannot request a payout under another name and then approve it itself', async () => {
    const me = userInfo().username;
    const requested = await runCli(['call', 'create_payout', '--input', payout, '--as', `not-${me}`], env);
    expect(requested.json.status).toBe('pending_approval');
    const id = requested.json.approvalId as string;
    // The same OS account, the same shell, one minute later: the approver is the OS account.
    const approved = await runCli(['approvals', 'approve', id], env);
    expect({ code: approved.code, state: approved.json?.approval?.state ?? approved.json?.status }).toEqual({
      code: 3,
      state: 'refused',
    });
  });
});

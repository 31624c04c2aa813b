import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIST_LIMIT } from '../../src/core/approvals/store.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { approvalRow } from '../helpers/approval-rows.js';
import { type SlackTest, startSlackTest } from '../helpers/slack-app.js';
import { APPROVALS_CHANNEL, approvalPosts, approvalsPolicyYaml } from '../helpers/slack-approvals.js';

/**
 * Slack's catch-up at start: every approval still waiting that has no message yet is posted, more
 * than one list's worth (500) of them too. The rows are written straight to the database while the
 * process is down (opening 510 approvals through the service would only make the test slow), so no
 * change of the feed announces them: only the catch-up finds them.
 */
describe('approvals waiting when Slack starts', () => {
  let t: SlackTest;
  beforeAll(async () => {
    t = await startSlackTest({
      policyYaml: approvalsPolicyYaml(),
      config: { approvalsChannel: APPROVALS_CHANNEL },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are all posted, past one list of 500, each once', async () => {
    const count = MAX_LIST_LIMIT + 10;
    const t0 = new Date().toISOString();
    await t.restart(async () => {
      const db = openDatabase(join(t.dir, 'bankops.db'));
      try {
        await sqliteStorage(db).transaction(async (tx) => {
          for (let n = 0; n < count; n += 1) await tx.approvals.insert(approvalRow(n, t0));
        });
      } finally {
        db.close();
      }
    });
    const ids = Array.from({ length: count }, (_, n) => `apr_w${String(n).padStart(4, '0')}`);
    await t.api.waitFor(() => ids.every((id) => approvalPosts(t.api, id).length > 0), 45_000);
    // The oldest ten are beyond the first list: only paging finds them.
    expect(ids.filter((id) => approvalPosts(t.api, id).length !== 1)).toEqual([]);
    expect(approvalPosts(t.api, 'apr_w0000')[0]?.args.channel).toBe(APPROVALS_CHANNEL);
    // Five hundred and ten posts to Slack's stand-in: seconds on a loaded machine.
  }, 60_000);
});

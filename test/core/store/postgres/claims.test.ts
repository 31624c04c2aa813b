import { beforeAll, describe, expect, it } from 'vitest';
import { lockDueExpiries } from '../../../../src/core/store/postgres/due.js';
import {
  approvalMessage,
  claimApprovalMessage,
  recordPosted,
  recordRendered,
  releaseMessageClaim,
} from '../../../../src/core/store/postgres/message-claims.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { insertApproval } from '../../../helpers/postgres-rows.js';

const available = await postgresAvailable();

describe.skipIf(!available)('claims that make replicas act once, on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;
  let replicas: PgStore[];

  beforeAll(async () => {
    store = db.store();
    await migrate(store);
    replicas = Array.from({ length: 3 }, (_, r) => db.store({ applicationName: `replica-${r}`, max: 2 }));
  });

  it('lets one replica post an approval message, and every replica find it afterwards', async () => {
    const claims = await Promise.all(
      replicas.flatMap((replica) =>
        [0, 1].map(() => claimApprovalMessage(replica.pool, 'ap-1', 'C0APPROVALS')),
      ),
    );
    expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c === 'busy')).toHaveLength(5);
    await recordPosted(store.pool, 'ap-1', '1700000000.000100', 'v1');
    const posted = { approvalId: 'ap-1', channel: 'C0APPROVALS', ts: '1700000000.000100' };
    expect(await claimApprovalMessage(replicas[1]?.pool ?? store.pool, 'ap-1', 'C0APPROVALS')).toEqual(
      posted,
    );
    expect(await approvalMessage(store.pool, 'ap-1')).toEqual(posted);
    expect(await recordRendered(store.pool, 'ap-1', 'v1')).toBe(false);
    expect(await recordRendered(store.pool, 'ap-1', 'v2')).toBe(true);
  });

  it('lets another replica post when the first gave up or its claim ran out', async () => {
    expect(await claimApprovalMessage(store.pool, 'ap-2', 'C0APPROVALS')).toBe('claimed');
    expect(await claimApprovalMessage(store.pool, 'ap-2', 'C0APPROVALS')).toBe('busy');
    await releaseMessageClaim(store.pool, 'ap-2');
    expect(await claimApprovalMessage(store.pool, 'ap-2', 'C0APPROVALS')).toBe('claimed');
    await store.pool.query(
      "UPDATE slack_approval_messages SET claimed_until = clock_timestamp() - interval '1 second' WHERE approval_id = 'ap-2'",
    );
    expect(await claimApprovalMessage(store.pool, 'ap-2', 'C0OTHER')).toBe('claimed');
    expect(await approvalMessage(store.pool, 'ap-2')).toBeUndefined();
  });

  it('expires each due approval once when every replica’s timer fires together', async () => {
    for (let i = 0; i < 20; i += 1) await insertApproval(store.pool, `due-${i}`);
    const expiredBy: string[][] = await Promise.all(
      replicas.map(async (replica) => {
        const mine: string[] = [];
        for (;;) {
          const ids = await withTransaction(replica, async (c) => {
            const due = await lockDueExpiries(c, '2026-01-03T00:00:00.000Z', 3);
            await c.query("UPDATE approvals SET state = 'expired' WHERE id = ANY($1)", [due]);
            return due;
          });
          if (ids.length === 0) return mine;
          mine.push(...ids);
        }
      }),
    );
    const all = expiredBy.flat();
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20);
    expect(await withTransaction(store, (c) => lockDueExpiries(c, '2026-01-03T00:00:00.000Z'))).toEqual([]);
  });
});

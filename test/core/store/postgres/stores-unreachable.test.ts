import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../../src/core/errors.js';
import { postgresPayees } from '../../../../src/core/store/postgres/payees.js';
import { createPgPool } from '../../../../src/core/store/postgres/pool.js';
import { postgresSlackStores } from '../../../../src/slack/store/postgres/index.js';
import { freePort } from '../../../helpers/ports.js';

describe('PostgreSQL stores without their database', () => {
  it('say in one line which database they cannot reach, from a statement or a transaction', async () => {
    const port = await freePort();
    const store = createPgPool(`postgres://ops:s3cret@127.0.0.1:${port}/bank`);
    const expected = `bankops cannot reach its database at 127.0.0.1:${port}/bank (connection refused)`;
    try {
      const slack = postgresSlackStores(store);
      const failures = await Promise.all([
        postgresPayees(store)
          .get('ben_1')
          .catch((error: unknown) => error),
        slack.seenEvents.record('Ev1', 1).catch((error: unknown) => error),
        slack.deliveries
          .accept({ eventId: 'evt_1', eventName: 'kyc_complete' }, [])
          .catch((error: unknown) => error),
      ]);
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(CodedError);
        expect((failure as CodedError).message).toBe(expected);
      }
    } finally {
      await store.pool.end();
    }
  });
});

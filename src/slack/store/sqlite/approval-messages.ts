import { type ApprovalMessage, type ApprovalMessages, CLAIM_MS } from '../../approvals/store.js';
import type { OutboxCall } from '../outbox-rows.js';
import { type Db, underFileLock } from './database.js';
import { outboxInserter } from './outbox.js';

interface Row {
  approval_id: string;
  channel: string;
  ts: string | null;
  claimed_until: number;
}

export function sqliteApprovalMessages(db: Db): ApprovalMessages {
  const select = db.prepare('SELECT * FROM slack_approval_messages WHERE approval_id = ?');
  const claim = db.prepare(
    `INSERT INTO slack_approval_messages (approval_id, channel, claimed_until) VALUES (?, ?, ?)
     ON CONFLICT (approval_id) DO UPDATE SET channel = excluded.channel, claimed_until = excluded.claimed_until
     WHERE ts IS NULL AND claimed_until <= ?`,
  );
  const posted = db.prepare(
    'UPDATE slack_approval_messages SET ts = ?, posted_at = ?, rendered = ? WHERE approval_id = ? AND ts IS NULL',
  );
  const render = db.prepare(
    `UPDATE slack_approval_messages SET rendered = @rendered
     WHERE approval_id = @approvalId AND ts IS NOT NULL AND rendered IS NOT @rendered`,
  );
  const release = db.prepare(
    'UPDATE slack_approval_messages SET claimed_until = 0 WHERE approval_id = ? AND ts IS NULL',
  );
  const queue = outboxInserter(db);

  const get = (approvalId: string): ApprovalMessage | undefined => {
    const row = select.get(approvalId) as Row | undefined;
    return row?.ts == null ? undefined : { approvalId, channel: row.channel, ts: row.ts };
  };
  const claimOrFind = db.transaction(
    (approvalId: string, channel: string, now: number): ApprovalMessage | 'claimed' | 'busy' => {
      const existing = get(approvalId);
      if (existing !== undefined) return existing;
      return claim.run(approvalId, channel, now + CLAIM_MS, now).changes === 1 ? 'claimed' : 'busy';
    },
  );
  const queueChanges = db.transaction(
    (
      approvalId: string,
      edit: { rendered: string; call: OutboxCall } | undefined,
      calls: readonly OutboxCall[],
    ): void => {
      const now = Date.now();
      if (edit !== undefined && render.run({ rendered: edit.rendered, approvalId }).changes === 1) {
        queue([edit.call], now);
      }
      queue(calls, now);
    },
  );

  return {
    get: async (approvalId) => get(approvalId),
    claim: (approvalId, channel, now = Date.now()) =>
      underFileLock(db, () => claimOrFind.immediate(approvalId, channel, now)),
    posted: async (approvalId, ts, rendered, now = Date.now()) => {
      await underFileLock(db, () => posted.run(ts, now, rendered, approvalId));
    },
    release: async (approvalId) => {
      await underFileLock(db, () => release.run(approvalId));
    },
    queueChanges: (approvalId, edit, calls) =>
      underFileLock(db, () => queueChanges.immediate(approvalId, edit, calls)),
  };
}

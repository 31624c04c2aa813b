import { type Db, migrate } from '../store/database.js';

/**
 * Which approval has which message in Slack (channel and `ts`), in bankops's database: a restart
 * or a second replica finds it and updates that message instead of posting another. SQL only.
 */
const APPROVALS_001 = [
  `CREATE TABLE IF NOT EXISTS slack_approval_messages (
     approval_id TEXT PRIMARY KEY,
     channel TEXT NOT NULL,
     -- NULL while one process is posting it (until claimed_until); then the message's ts.
     ts TEXT,
     claimed_until INTEGER NOT NULL,
     posted_at INTEGER,
     -- SHA-256 of the last content sent, so an event that changes nothing shown sends no update.
     rendered TEXT
   ) STRICT`,
];

export function migrateSlackApprovals(db: Db): void {
  migrate(db, 'slack/002-approval-messages', APPROVALS_001);
}

export interface ApprovalMessage {
  approvalId: string;
  channel: string;
  ts: string;
}

interface Row {
  approval_id: string;
  channel: string;
  ts: string | null;
  claimed_until: number;
}

/** How long a process may take to post a message before another may try (a crash mid-post). */
const CLAIM_MS = 15_000;

export class ApprovalMessages {
  readonly #db: Db;
  readonly #get;
  readonly #claim;
  readonly #posted;
  readonly #release;
  readonly #render;

  constructor(db: Db) {
    this.#db = db;
    this.#get = db.prepare('SELECT * FROM slack_approval_messages WHERE approval_id = ?');
    this.#claim = db.prepare(
      `INSERT INTO slack_approval_messages (approval_id, channel, claimed_until) VALUES (?, ?, ?)
       ON CONFLICT (approval_id) DO UPDATE SET channel = excluded.channel, claimed_until = excluded.claimed_until
       WHERE ts IS NULL AND claimed_until <= ?`,
    );
    this.#posted = db.prepare(
      'UPDATE slack_approval_messages SET ts = ?, posted_at = ?, rendered = ? WHERE approval_id = ? AND ts IS NULL',
    );
    this.#render = db.prepare(
      `UPDATE slack_approval_messages SET rendered = @rendered
       WHERE approval_id = @approvalId AND ts IS NOT NULL AND rendered IS NOT @rendered`,
    );
    this.#release = db.prepare(
      'UPDATE slack_approval_messages SET claimed_until = 0 WHERE approval_id = ? AND ts IS NULL',
    );
  }

  /** The message of an approval, once posted. */
  get(approvalId: string): ApprovalMessage | undefined {
    const row = this.#get.get(approvalId) as Row | undefined;
    return row?.ts == null ? undefined : { approvalId, channel: row.channel, ts: row.ts };
  }

  /**
   * Before posting: the message if it exists, `claimed` when this process may post it now, `busy`
   * when another is posting it (try again later).
   */
  claim(approvalId: string, channel: string, now = Date.now()): ApprovalMessage | 'claimed' | 'busy' {
    return this.#db
      .transaction(() => {
        const existing = this.get(approvalId);
        if (existing !== undefined) return existing;
        const taken = this.#claim.run(approvalId, channel, now + CLAIM_MS, now).changes === 1;
        return taken ? 'claimed' : 'busy';
      })
      .immediate();
  }

  /** Records the `ts` Slack gave the message, at once: a crash after this posts nothing twice. */
  posted(approvalId: string, ts: string, rendered: string, now = Date.now()): void {
    this.#posted.run(ts, now, rendered, approvalId);
  }

  /** Records content about to be sent; false when the message already shows exactly that. */
  changed(approvalId: string, rendered: string): boolean {
    return this.#render.run({ rendered, approvalId }).changes === 1;
  }

  /** Posting failed: another attempt (here or elsewhere) may post it at once. */
  release(approvalId: string): void {
    this.#release.run(approvalId);
  }
}

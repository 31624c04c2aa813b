import type { OutboxCall } from '../store/outbox-rows.js';

/**
 * Which approval has which message in Slack (channel and `ts`), in bankops's database: a restart
 * or a second replica finds it and updates that message instead of posting another. The SQL is in
 * `../store/sqlite/approval-messages.ts` and `../store/postgres/approval-messages.ts`.
 */
export interface ApprovalMessage {
  approvalId: string;
  channel: string;
  ts: string;
}

/** How long a process may take to post a message before another may try (a crash mid-post). */
export const CLAIM_MS = 15_000;

export interface ApprovalMessages {
  /** The message of an approval, once posted. */
  get(approvalId: string): Promise<ApprovalMessage | undefined>;

  /**
   * Before posting: the message if it exists, `claimed` when this caller may post it now (it won
   * the claim: an insert, or a claim another let lapse, until `now + CLAIM_MS`), `busy` when another
   * is posting it (try again later).
   */
  claim(approvalId: string, channel: string, now?: number): Promise<ApprovalMessage | 'claimed' | 'busy'>;

  /** Records the `ts` Slack gave the message, at once: a crash after this posts nothing twice. */
  posted(approvalId: string, ts: string, rendered: string, now?: number): Promise<void>;

  /** Posting failed: another attempt (here or elsewhere) may post it at once. */
  release(approvalId: string): Promise<void>;

  /**
   * What an approval's change sends, in one transaction with the outbox: `edit` is queued only when
   * its `rendered` digest differs from what the message shows (and the digest is recorded), then
   * `calls`; calls whose key is already queued are skipped, so a repeated change queues nothing.
   */
  queueChanges(
    approvalId: string,
    edit: { rendered: string; call: OutboxCall } | undefined,
    calls: readonly OutboxCall[],
  ): Promise<void>;
}

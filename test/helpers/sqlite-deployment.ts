import type { SlackStores } from '../../src/slack/store/stores.js';

/** The ids `fillSlackStores` uses, to read them back from another backend. */
export const SLACK_IDS = {
  answer: 'ans_1',
  event: 'Ev0001',
  delivery: { eventId: 'evt_1', eventName: 'PAYOUT_UPDATED' },
  message: 'apr_slack_1',
} as const;

/**
 * Fills the Slack front end's stores as it would: an answer kept for "Share", an event seen, a
 * service delivery with its message, an approval message posted and edited, an outbox with sent,
 * retried and waiting calls.
 */
export async function fillSlackStores(stores: SlackStores): Promise<void> {
  const now = Date.now();
  await stores.answers.insert(
    {
      id: SLACK_IDS.answer,
      userId: 'U0ALICE',
      tool: 'list_accounts',
      pages: [{ text: 'page 1', blocks: [] }],
      shareable: true,
    },
    now,
  );
  await stores.seenEvents.record(SLACK_IDS.event, now);
  await stores.deliveries.accept(SLACK_IDS.delivery, [
    { method: 'chat.postMessage', args: { channel: 'C1', text: 'payout updated' }, dedupeKey: 'evt_1' },
  ]);
  const claim = await stores.approvalMessages.claim(SLACK_IDS.message, 'C1', now);
  if (claim === 'busy') throw new Error('the approval message is claimed');
  await stores.approvalMessages.posted(SLACK_IDS.message, '1700000000.000100', 'digest-0', now);
  await stores.approvalMessages.queueChanges(
    SLACK_IDS.message,
    {
      rendered: 'digest-1',
      call: { method: 'chat.update', args: { channel: 'C1', ts: '1700000000.000100' } },
    },
    [
      {
        method: 'chat.postMessage',
        args: { channel: 'C1', thread_ts: '1700000000.000100', text: 'approved' },
      },
    ],
  );
  // Claimed a moment later than every call was queued (each store stamps its own `now`).
  const later = Date.now() + 1_000;
  const sent = await stores.outbox.claimHead(later, later + 10_000);
  if (sent === undefined) throw new Error('no outbox head to send');
  await stores.outbox.sent(sent.id, later);
  const retried = await stores.outbox.claimHead(later, later + 10_000);
  if (retried === undefined) throw new Error('no outbox head to retry');
  await stores.outbox.retryAt(retried.id, 1, later + 5_000, 'ratelimited');
}

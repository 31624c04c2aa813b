import { describe, expect, it } from 'vitest';
import { CLAIM_MS } from '../../src/slack/approvals/store.js';
import { AnswerStore } from '../../src/slack/store/answers.js';
import { slackStores } from '../../src/slack/store/backend.js';
import { SeenEvents } from '../../src/slack/store/seen-events.js';
import type { SlackStores } from '../../src/slack/store/stores.js';
import { contractBackends } from '../helpers/backends.js';

const BACKENDS = await contractBackends('slack-stores', {
  truncate: `TRUNCATE slack_seen_events, slack_pages, service_deliveries, slack_outbox, slack_approval_messages
       RESTART IDENTITY`,
});

const post = (text: string, dedupeKey?: string) => ({
  method: 'chat.postMessage',
  args: { channel: 'C1', text },
  ...(dedupeKey === undefined ? {} : { dedupeKey }),
});

/** What every backend of the Slack front end's stores must do, shown through their interfaces. */
describe.each(BACKENDS)('$name', (backend) => {
  const twoReplicas = async (): Promise<[SlackStores, SlackStores]> => {
    const [a, b] = await backend.twoReplicas();
    return [await a.storesOf(slackStores), await b.storesOf(slackStores)];
  };
  describe('the outbox', () => {
    it('queues in order, once per key, and hands the head to one replica at a time', async () => {
      const [one, two] = await twoReplicas();
      expect(await one.outbox.add([post('a', 'k1'), post('b'), post('again', 'k1')], 1_000)).toBe(2);
      expect(await two.outbox.add([post('a', 'k1')], 1_000)).toBe(0);
      expect(await one.outbox.pending()).toBe(2);

      const head = await one.outbox.claimHead(1_000, 31_000);
      expect(head).toMatchObject({ method: 'chat.postMessage', args: { text: 'a' }, attempts: 0 });
      // Leased: the other replica gets nothing, not even the message behind it (order is kept).
      expect(await two.outbox.claimHead(1_000, 31_000)).toBeUndefined();
      // A lease that ran out (its holder died) is taken over.
      const taken = await two.outbox.claimHead(31_000, 61_000);
      expect(taken?.id).toBe(head?.id);
      expect(await one.outbox.claimHead(31_000, 61_000)).toBeUndefined();
    });

    it('waits for a retry before anything behind it, and moves on once the head is sent or dropped', async () => {
      const [one, two] = await twoReplicas();
      await one.outbox.add([post('a'), post('b'), post('c')], 0);
      const a = await one.outbox.claimHead(0, 30_000);
      if (a === undefined) throw new Error('no head');
      await one.outbox.retryAt(a.id, 1, 5_000, 'ratelimited');
      expect(await two.outbox.claimHead(4_999, 34_999)).toBeUndefined();
      expect(await two.outbox.claimHead(5_000, 35_000)).toMatchObject({ id: a.id, attempts: 1 });
      await two.outbox.sent(a.id, 5_001);
      const b = await one.outbox.claimHead(5_001, 35_001);
      expect(b?.args).toMatchObject({ text: 'b' });
      if (b === undefined) throw new Error('no second message');
      await one.outbox.dropped(b.id, 5_002, 1, 'channel_not_found');
      expect(await two.outbox.claimHead(5_002, 35_002)).toMatchObject({ args: { text: 'c' } });
      expect(await one.outbox.pending()).toBe(1);
    });

    it('gives the head to one of many claims made at once, and queues a key once when both replicas race', async () => {
      const [one, two] = await twoReplicas();
      const queued = await Promise.all([one, two, one, two].map((r) => r.outbox.add([post('x', 'k')], 0)));
      expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
      await one.outbox.add([post('y')], 0);
      const claims = await Promise.all(
        [one, two, one, two, one, two].map((r) => r.outbox.claimHead(0, 30_000)),
      );
      const won = claims.filter((row) => row !== undefined);
      expect(won.map((row) => row.args.text)).toEqual(['x']);
    });
  });

  describe('approval messages', () => {
    it('lets one of many claims made at once post the message', async () => {
      const [one, two] = await twoReplicas();
      const claims = await Promise.all(
        [one, two, one, two].map((r) => r.approvalMessages.claim('apr_3', 'C1', 1_000)),
      );
      expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c === 'busy')).toHaveLength(3);
    });

    it('lets one replica post a message, the other wait, and anyone retry once a claim is released or lapsed', async () => {
      const [one, two] = await twoReplicas();
      expect(await one.approvalMessages.claim('apr_1', 'C1', 1_000)).toBe('claimed');
      expect(await two.approvalMessages.claim('apr_1', 'C1', 1_000)).toBe('busy');
      await one.approvalMessages.release('apr_1');
      expect(await two.approvalMessages.claim('apr_1', 'C1', 1_001)).toBe('claimed');
      expect(await one.approvalMessages.claim('apr_1', 'C1', 1_001 + CLAIM_MS - 1)).toBe('busy');
      expect(await one.approvalMessages.claim('apr_1', 'C1', 1_001 + CLAIM_MS)).toBe('claimed');

      expect(await two.approvalMessages.get('apr_1')).toBeUndefined();
      await one.approvalMessages.posted('apr_1', '111.222', 'digest-1');
      const message = { approvalId: 'apr_1', channel: 'C1', ts: '111.222' };
      expect(await two.approvalMessages.get('apr_1')).toEqual(message);
      expect(await two.approvalMessages.claim('apr_1', 'C1')).toEqual(message);
    });

    it('queues an edit only when what is shown changes, with its thread lines, once per key', async () => {
      const [one, two] = await twoReplicas();
      await one.approvalMessages.claim('apr_2', 'C1');
      await one.approvalMessages.posted('apr_2', '1.2', 'shown-1');
      const edit = (rendered: string, key: string) => ({
        rendered,
        call: { method: 'chat.update', args: { channel: 'C1', ts: '1.2' }, dedupeKey: key },
      });
      // Nothing shown changes: no edit, but the thread line goes.
      await one.approvalMessages.queueChanges('apr_2', edit('shown-1', 'e1'), [post('voted', 't1')]);
      expect(await one.outbox.pending()).toBe(1);
      await one.approvalMessages.queueChanges('apr_2', edit('shown-2', 'e2'), [post('approved', 't2')]);
      expect(await one.outbox.pending()).toBe(3);
      // The same change again, from the other replica: nothing new.
      await two.approvalMessages.queueChanges('apr_2', edit('shown-2', 'e2'), [post('approved', 't2')]);
      expect(await two.outbox.pending()).toBe(3);
      const sent: unknown[] = [];
      for (;;) {
        const now = Date.now();
        const row = await two.outbox.claimHead(now, now + 30_000);
        if (row === undefined) break;
        sent.push([row.method, row.args.text]);
        await two.outbox.sent(row.id, now);
      }
      expect(sent).toEqual([
        ['chat.postMessage', 'voted'],
        ['chat.update', undefined],
        ['chat.postMessage', 'approved'],
      ]);
    });
  });

  describe('service deliveries', () => {
    it('records a delivery and queues its messages together, and a repeat queues nothing', async () => {
      const [one, two] = await twoReplicas();
      const delivery = { eventId: 'evt_1', eventName: 'card_status_changed' };
      expect(await one.deliveries.accept(delivery, [post('1/2'), post('2/2')])).toBe(true);
      expect(await two.deliveries.accept(delivery, [post('1/2'), post('2/2')])).toBe(false);
      expect(await two.deliveries.accept({ ...delivery, eventName: 'kyc_complete' }, [post('other')])).toBe(
        true,
      );
      expect(await one.outbox.pending()).toBe(3);
    });

    it('accepts a delivery once when replicas receive it at the same moment', async () => {
      const [one, two] = await twoReplicas();
      const delivery = { eventId: 'evt_2', eventName: 'kyc_complete' };
      const accepted = await Promise.all(
        [one, two, one, two].map((r) => r.deliveries.accept(delivery, [post('1/2'), post('2/2')])),
      );
      expect(accepted.filter(Boolean)).toHaveLength(1);
      expect(await two.outbox.pending()).toBe(2);
    });
  });

  describe('seen events and answers', () => {
    it('takes an event id once across replicas', async () => {
      const [one, two] = await twoReplicas();
      const [a, b] = [new SeenEvents(one.seenEvents), new SeenEvents(two.seenEvents)];
      expect(await a.firstTime('Ev1')).toBe(true);
      expect(await b.firstTime('Ev1')).toBe(false);
      expect(await b.firstTime('Ev2')).toBe(true);
      const raced = await Promise.all([one, two, one, two].map((r) => r.seenEvents.record('Ev3', 1)));
      expect(raced.filter(Boolean)).toHaveLength(1);
    });

    it('keeps an answer for half an hour, for any replica', async () => {
      const [one, two] = await twoReplicas();
      const pages = [{ text: 'page 1', blocks: [] }];
      const id = await new AnswerStore(one.answers).save({
        userId: 'U1',
        tool: 'list_accounts',
        pages,
        shareable: true,
      });
      expect(await new AnswerStore(two.answers).get(id)).toEqual({
        id,
        userId: 'U1',
        tool: 'list_accounts',
        pages,
        shareable: true,
      });
      await two.answers.insert(
        { id: 'old', userId: 'U1', tool: 't', pages, shareable: false },
        Date.now() - 31 * 60_000,
      );
      expect(await new AnswerStore(one.answers).get('old')).toBeUndefined();
      expect(await new AnswerStore(one.answers).get('missing')).toBeUndefined();
    });
  });
});

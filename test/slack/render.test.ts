import { describe, expect, it } from 'vitest';
import type { OutputDocument, Value } from '../../src/present/output/index.js';
import { documentMessages } from '../../src/slack/render/document.js';
import { serviceEventMessages } from '../../src/slack/render/service-event.js';
import { messageProblems } from '../helpers/slack-blocks.js';
import { textOf } from '../helpers/slack-requests.js';

const cell = (text: string, kind: Value['kind'] = 'text'): Value => ({ text, kind });

describe('Block Kit within Slack’s limits, nothing cut', () => {
  it('pages a table longer than 100 rows over several messages, one table each, every row kept', () => {
    const doc: OutputDocument = {
      title: 'Transactions',
      blocks: [
        { type: 'record', fields: [{ key: 'card', label: 'Card', value: cell('card_1', 'id') }] },
        {
          type: 'table',
          title: 'Items',
          columns: [
            { key: 'id', label: 'ID', kind: 'id', align: 'left' },
            { key: 'amount', label: 'Amount', kind: 'amount', align: 'right' },
          ],
          rows: Array.from({ length: 250 }, (_, i) => [
            cell(`txn_${i}`, 'id'),
            cell(`${i}.00 USD`, 'amount'),
          ]),
          total: 250,
        },
        { type: 'note', text: 'Page 1 of 1.', tone: 'info' },
      ],
    };
    const pages = documentMessages(doc);
    expect(pages.length).toBe(3);
    for (const [i, page] of pages.entries()) {
      expect(messageProblems(`page ${i}`, { ...page })).toEqual([]);
    }
    const all = pages.map((p) => textOf(p)).join('\n');
    for (let i = 0; i < 250; i += 1) expect(all).toContain(`txn_${i}\n`);
    expect(all).toContain('rows 199–250 of 250');
    expect(pages[0]?.text).toBe('Transactions (1/3)');
  });

  it('splits a record of many long fields into sections of at most 10 fields and text over 3,000 characters', () => {
    const doc: OutputDocument = {
      title: 'A long record',
      blocks: [
        {
          type: 'record',
          fields: Array.from({ length: 35 }, (_, i) => ({
            key: `f${i}`,
            label: `Field ${i}`,
            value: cell('x'.repeat(i === 3 ? 4_500 : 30)),
          })),
        },
      ],
    };
    const pages = documentMessages(doc);
    for (const page of pages) expect(messageProblems('record', { ...page })).toEqual([]);
    expect(pages.map(textOf).join('').match(/x/g)?.length).toBe(4_500 + 34 * 30);
  });

  it('posts a service event’s data in full over as many messages as it needs, secrets redacted, card numbers masked', () => {
    const data = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`field_${i}`, `value ${i}`]));
    const messages = serviceEventMessages({
      event_id: 'evt_1',
      event_name: 'card_create',
      data: { ...data, pin: '1234', note: 'card 4111 1111 1111 1111 issued' },
    });
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(messageProblems('event', { ...message })).toEqual([]);
    const all = messages.map(textOf).join('\n');
    for (let i = 0; i < 600; i += 1) expect(all).toContain(`*Field ${i}*\nvalue ${i}`);
    expect(all).not.toContain('1234\n');
    expect(all).not.toContain('4111 1111 1111 1111');
  });
});

describe('service events as people read them', () => {
  it('labels fields, shows times in each reader’s zone, and a card bankops has seen by its last four', () => {
    const [message] = serviceEventMessages(
      {
        event_id: 'evt_1',
        event_name: 'card_create',
        occurred_at: '2026-11-25T10:00:00Z',
        data: {
          cardId: 'card_demo_alice_virtual',
          cardholderId: 'chb_demo_alice',
          createdAt: '2026-11-25T09:59:58Z',
        },
      },
      (id) => (id === 'card_demo_alice_virtual' ? '••••4821' : undefined),
    );
    const text = JSON.stringify(message?.blocks);
    expect(text).toContain('*Card ID*\\n••••4821 (`card_demo_alice_virtual`)');
    expect(text).toContain('*Cardholder ID*');
    expect(text).toContain('<!date^1795600798^{time_secs} {date_short_pretty}|2026-11-25T09:59:58Z>');
    expect(text).toContain('at <!date^1795600800^');
    expect(text).not.toContain('*cardId*');
  });
});

import { describe, expect, it } from 'vitest';
import { contentOf, type Message } from '../../src/try/conversations.js';
import { blockHtml } from '../../src/try/render/blocks.js';
import type { RenderContext } from '../../src/try/render/html.js';
import { messageHtml } from '../../src/try/render/message.js';
import { mrkdwnHtml } from '../../src/try/render/mrkdwn.js';
import { modalHtml } from '../../src/try/render/view.js';

/** The local workspace's Block Kit and mrkdwn rendering: Slack's syntax, everything else escaped. */

const ctx = (): RenderContext => ({
  directory: {
    user: (id) => (id === 'U0OLIVIA' ? 'Olivia Okafor' : undefined),
    channel: (id) => (id === 'C0APPROVALS' ? 'approvals' : undefined),
    group: (id) => (id === 'S0TREASURY' ? 'treasury' : undefined),
  },
  now: Date.parse('2026-11-24T12:00:00Z'),
  unsupported: [],
  idPrefix: 'u1',
});

const md = (text: string): string => mrkdwnHtml(text, ctx());

describe('mrkdwn', () => {
  it('styles bold, italic, strike and code, and leaves markers inside words and code alone', () => {
    expect(md('*Rule:* _soon_ ~gone~ `a*b*c`')).toBe(
      '<b>Rule:</b> <i>soon</i> <s>gone</s> <code>a*b*c</code>',
    );
    expect(md('ben_de_swift_0001 costs 2*3*4')).toBe('ben_de_swift_0001 costs 2*3*4');
    expect(md('```\nline <1>\n*two*```')).toBe('<pre>line &#60;1&#62;\n*two*</pre>');
  });

  it('shows mentions, channels, user groups, links and dates as Slack does', () => {
    expect(md('<@U0OLIVIA> in <#C0APPROVALS> for <!subteam^S0TREASURY>')).toBe(
      '<span class="mention user">@Olivia Okafor</span> in <span class="mention channel">#approvals</span> for <span class="mention group">@treasury</span>',
    );
    expect(md('<@U0NOBODY|nobody> <!here>')).toContain('@nobody');
    expect(md('<https://bank.example/a?b=1&amp;c=2|the page>')).toBe(
      '<a href="https://bank.example/a?b=1&#38;c=2" target="_blank" rel="noopener noreferrer">the page</a>',
    );
    const date = md('<!date^1795953600^{date_short_pretty} {time_secs}|2026-11-29T12:00:00Z>');
    expect(date).toMatch(
      /^<time datetime="2026-11-29T12:00:00.000Z" title="2026-11-29T12:00:00Z">Nov 29, 2026 \d+:00:00 [AP]M<\/time>$/,
    );
    expect(md('<!date^1795953600^{nonsense}|the fallback>')).toContain('>the fallback</time>');
  });

  it('escapes everything that is not Slack syntax, and never links what could run', () => {
    expect(md('&lt;script&gt;alert(1)&lt;/script&gt; "x" &amp; y')).toBe(
      '&#60;script&#62;alert(1)&#60;/script&#62; &#34;x&#34; &#38; y',
    );
    expect(md('<javascript:alert(1)|click>')).toBe('click');
    expect(md(':white_check_mark: :no_such_emoji:')).toBe('✅ :no_such_emoji:');
    expect(md('&gt; quoted\nplain')).toBe('<blockquote>quoted</blockquote>plain');
  });
});

describe('blocks', () => {
  it('shows anything it does not know as an unsupported box, and says so', () => {
    const c = ctx();
    const html = blockHtml({ type: 'rich_text', elements: [] }, 'b0', c);
    expect(html).toContain('class="unsupported"');
    expect(html).toContain('unsupported block rich_text');
    expect(c.unsupported).toEqual(['block rich_text']);
    const element = blockHtml(
      { type: 'actions', elements: [{ type: 'datepicker', action_id: 'd' }] },
      'b1',
      c,
    );
    expect(element).toContain('unsupported element datepicker');
  });

  it('renders buttons by path, with their confirm dialog, and link buttons as links', () => {
    const c = ctx();
    const html = blockHtml(
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Approve' },
            action_id: 'approve',
            value: 'secret-ish value',
            style: 'primary',
            confirm: {
              title: { type: 'plain_text', text: 'Cannot be undone' },
              text: { type: 'plain_text', text: 'Block it?' },
              confirm: { type: 'plain_text', text: 'Approve' },
              deny: { type: 'plain_text', text: 'Back' },
              style: 'danger',
            },
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open' },
            action_id: 'o',
            url: 'https://localhost/x',
          },
        ],
      },
      'b2',
      c,
    );
    expect(html).toContain('data-path="b2.e0" data-confirm="u1-b2_e0"');
    expect(html).toContain('<dialog class="confirm" id="u1-b2_e0">');
    expect(html).toContain('<button value="yes" class="btn danger">Approve</button>');
    expect(html).not.toContain('secret-ish value');
    expect(html).toContain(
      '<a class="btn " href="https://localhost/x" target="_blank" rel="noopener noreferrer" data-path="b2.e1">Open</a>',
    );
    expect(c.unsupported).toEqual([]);
  });

  it('renders a table with its header row and aligned columns', () => {
    const html = blockHtml(
      {
        type: 'table',
        column_settings: [{ align: 'left' }, { align: 'right' }],
        rows: [
          [
            { type: 'raw_text', text: 'Currency' },
            { type: 'raw_text', text: 'Available' },
          ],
          [
            { type: 'raw_text', text: 'USD' },
            { type: 'raw_text', text: '250,000.00 <USD>' },
          ],
        ],
      },
      'a0.b0',
      ctx(),
    );
    expect(html).toBe(
      '<div class="block table"><table><tr><th>Currency</th><th class="right">Available</th></tr><tr><td>USD</td><td class="right">250,000.00 &#60;USD&#62;</td></tr></table></div>',
    );
  });
});

describe('messages and modals', () => {
  it('says who, when, edited and only visible to you, and shows the text when there are no blocks', () => {
    const message: Message = {
      channel: 'C0PAYMENTS',
      ts: '1795953600.000100',
      user: 'U0BANKOPS',
      edited: true,
      ephemeralTo: 'U0OLIVIA',
      ...contentOf({ text: '*Done* for <@U0OLIVIA>' }),
    };
    const html = messageHtml(message, { name: 'bankops', app: true }, ctx());
    expect(html).toContain('<b class="who">bankops</b><span class="badge">APP</span>');
    expect(html).toContain(
      '<span class="edited">(edited)</span><span class="only">Only visible to you</span>',
    );
    expect(html).toContain('<b>Done</b> for <span class="mention user">@Olivia Okafor</span>');
  });

  it('renders a modal’s inputs pre-filled with what was typed, required unless optional, errors inline', () => {
    const view = {
      type: 'modal',
      title: { type: 'plain_text', text: 'Reject request' },
      submit: { type: 'plain_text', text: 'Reject' },
      close: { type: 'plain_text', text: 'Back' },
      blocks: [
        {
          type: 'input',
          block_id: 'reason',
          label: { type: 'plain_text', text: 'Why?' },
          element: { type: 'plain_text_input', action_id: 'reason', multiline: true, max_length: 2000 },
        },
        {
          type: 'input',
          block_id: 'amount',
          optional: true,
          label: { type: 'plain_text', text: 'Amount' },
          element: {
            type: 'number_input',
            action_id: 'value',
            is_decimal_allowed: true,
            initial_value: '12',
          },
        },
        {
          type: 'input',
          block_id: 'side',
          label: { type: 'plain_text', text: 'Side' },
          element: {
            type: 'static_select',
            action_id: 'value',
            options: [
              { text: { type: 'plain_text', text: 'SOURCE' }, value: 'SOURCE' },
              { text: { type: 'plain_text', text: 'TARGET' }, value: 'TARGET' },
            ],
          },
        },
      ],
    };
    const c = ctx();
    const html = modalHtml(
      {
        id: 'V9',
        user: 'U0AMIRA',
        view,
        typed: { reason: '  <b>', side: 'TARGET' },
        errors: { reason: 'Say why' },
      },
      c,
    );
    expect(html).toContain('<form class="modal" data-view="V9">');
    expect(html).toContain(
      '<textarea name="reason" data-action="reason" data-type="plain_text_input" required placeholder="" maxlength="2000" rows="4">  &#60;b&#62;</textarea>',
    );
    expect(html).toContain('<span class="error" role="alert">Say why</span>');
    expect(html).toContain(
      '<input type="number" step="any" name="amount" data-action="value" data-type="number_input" placeholder="" value="12">',
    );
    expect(html).toContain('<option value="TARGET" selected>TARGET</option>');
    expect(html).toContain('<button type="submit" class="btn primary">Reject</button>');
    expect(c.unsupported).toEqual([]);
  });
});

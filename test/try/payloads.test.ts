import { describe, expect, it } from 'vitest';
import { escapeCommandText } from '../../src/try/actions.js';
import { actionOf, elementAt, stateValues } from '../../src/try/payloads.js';

/** What the workspace fills into Slack's payloads from its memory, as Slack fills them. */
describe('Slack’s payloads, from the workspace', () => {
  it('escapes a command’s text as a should_escape command gets it: channels, people and groups as ids', () => {
    expect(
      escapeCommandText('subscribe card_create #payments for @amira and @treasury, not #nowhere a<b&c'),
    ).toBe(
      'subscribe card_create <#C0PAYMENTS|payments> for <@U0AMIRA|amira> and <!subteam^S0TREASURY|@treasury>, not #nowhere a&lt;b&amp;c',
    );
  });

  it('finds the element a click names by its path, and reports the action Slack would', () => {
    const button = {
      type: 'button',
      action_id: 'approve',
      value: 'v1',
      text: { type: 'plain_text', text: 'Approve' },
    };
    const select = {
      type: 'static_select',
      action_id: 'pick',
      options: [{ value: 'a', text: { type: 'plain_text', text: 'A' } }],
    };
    const blocks = [
      { type: 'section', block_id: 's', text: { type: 'mrkdwn', text: 'x' }, accessory: select },
      { type: 'actions', block_id: 'act', elements: [button] },
    ];
    const attachments = [{ blocks: [{ type: 'actions', block_id: 'more', elements: [button] }] }];
    expect(elementAt(blocks, attachments, 'b1.e0')?.element).toBe(button);
    expect(elementAt(blocks, attachments, 'a0.b0.e0')?.block.block_id).toBe('more');
    expect(elementAt(blocks, attachments, 'b0.x')?.element).toBe(select);
    expect(elementAt(blocks, attachments, 'b9.e0')).toBeUndefined();
    expect(elementAt(blocks, attachments, '../b1')).toBeUndefined();
    const found = elementAt(blocks, attachments, 'b1.e0');
    expect(found === undefined ? undefined : actionOf(found, undefined)).toMatchObject({
      type: 'button',
      action_id: 'approve',
      block_id: 'act',
      value: 'v1',
    });
    const chosen = elementAt(blocks, attachments, 'b0.x');
    expect(chosen === undefined ? undefined : actionOf(chosen, 'a')).toMatchObject({
      selected_option: { value: 'a' },
    });
    expect(chosen === undefined ? undefined : actionOf(chosen, 'not an option')).toBeUndefined();
  });

  it('reports a modal’s state by block and action id: empty inputs null, selects by option', () => {
    const view = {
      type: 'modal',
      blocks: [
        { type: 'input', block_id: 'reason', element: { type: 'plain_text_input', action_id: 'reason' } },
        { type: 'input', block_id: 'note', element: { type: 'plain_text_input', action_id: 'value' } },
        {
          type: 'input',
          block_id: 'side',
          element: {
            type: 'static_select',
            action_id: 'value',
            options: [{ value: 'SOURCE', text: { type: 'plain_text', text: 'SOURCE' } }],
          },
        },
        { type: 'section', text: { type: 'mrkdwn', text: 'not an input' } },
      ],
    };
    expect(
      stateValues({
        id: 'V1',
        user: 'U0OLIVIA',
        view,
        typed: { reason: 'wrong payee', side: 'SOURCE' },
        errors: {},
      }),
    ).toEqual({
      reason: { reason: { type: 'plain_text_input', value: 'wrong payee' } },
      note: { value: { type: 'plain_text_input', value: null } },
      side: {
        value: {
          type: 'static_select',
          selected_option: { value: 'SOURCE', text: { type: 'plain_text', text: 'SOURCE' } },
        },
      },
    });
  });
});

import type { ApprovalView } from '../../core/approvals/types.js';
import { whatWillHappen } from '../../present/approval-words.js';
import { rejectTarget } from '../metadata.js';
import { escapeText, LIMITS, plain, sections } from '../render/message.js';
import type { ModalView } from '../render/modal.js';
import { APPROVAL_VIEWS } from './ids.js';

/** The block and action of the reason field (inline errors name the block). */
export const REASON_BLOCK = 'reason';
const REASON_ACTION = 'reason';

/** The reason a rejecter typed, from a submission's state. */
export function reasonOf(values: Record<string, Record<string, { value?: string | null }>>): string {
  return values[REASON_BLOCK]?.[REASON_ACTION]?.value ?? '';
}

/** "Why reject it?": the request in words, and a required reason that goes back to the requester. */
export function rejectReasonModal(view: ApprovalView, where: { responseUrl?: string }): ModalView {
  const what = whatWillHappen(view).map((line) => `• ${escapeText(line)}`);
  return {
    type: 'modal',
    callback_id: APPROVAL_VIEWS.rejectReason,
    private_metadata: rejectTarget.encode({ approvalId: view.id, ...where }),
    title: plain('Reject request', LIMITS.viewTitle),
    submit: plain('Reject', LIMITS.viewTitle),
    close: plain('Back', LIMITS.viewTitle),
    blocks: [
      ...sections(`*Reject \`${view.id}\`?* Nothing will happen.\n${what.join('\n')}`),
      {
        type: 'input',
        block_id: REASON_BLOCK,
        label: plain('Why? The requester reads this, and the audit log keeps it.'),
        element: {
          type: 'plain_text_input',
          action_id: REASON_ACTION,
          multiline: true,
          max_length: 2000,
          placeholder: plain('e.g. wrong payee: the invoice names another account', LIMITS.placeholder),
        },
      },
    ],
  };
}

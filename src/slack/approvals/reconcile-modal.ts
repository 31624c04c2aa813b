import type { ApprovalView } from '../../core/approvals/types.js';
import { whatWillHappen } from '../../present/approval-words.js';
import { type ReconcileTarget, reconcileTarget } from '../metadata.js';
import { escapeText, LIMITS, plain, sections } from '../render/message.js';
import type { ModalView } from '../render/modal.js';
import { APPROVAL_VIEWS } from './ids.js';
import { REASON_BLOCK } from './reject-modal.js';

/**
 * Settling an `unresolved` approval from its message (docs/slack.md "Unresolved"): Sent, Not sent
 * and Send again, each asking in a modal what the person found at the service by the request id,
 * then acting as `bankops approvals reconcile` does.
 */

type Outcome = ReconcileTarget['outcome'];

const WORDS: Record<Outcome, { title: string; submit: string; ask: string; example: string }> = {
  succeeded: {
    title: 'It was sent',
    submit: 'Mark sent',
    ask: 'It went through at the service: the approval is marked succeeded and nothing is sent again.',
    example: 'e.g. the service shows the payout by this request id, status COMPLETED',
  },
  failed: {
    title: 'It was not sent',
    submit: 'Mark not sent',
    ask: 'It did not go through at the service: the approval is marked failed, and the request may be made again.',
    example: 'e.g. the service has no payout with this request id',
  },
  retry: {
    title: 'Send it again',
    submit: 'Send again',
    ask: 'It is sent once more with the same request id: if the first one went through, the service answers with it and nothing is paid twice.',
    example: 'e.g. the service is answering again; nothing found under this request id',
  },
};

/** "What did you find?": the request in words, the request id, and a required reason for the audit log. */
export function reconcileReasonModal(
  view: ApprovalView,
  outcome: Outcome,
  where: { responseUrl?: string },
): ModalView {
  const words = WORDS[outcome];
  const what = whatWillHappen(view).map((line) => `• ${escapeText(line)}`);
  return {
    type: 'modal',
    callback_id: APPROVAL_VIEWS.reconcileReason,
    private_metadata: reconcileTarget.encode({
      approvalId: view.id,
      requestId: view.requestId,
      outcome,
      ...where,
    }),
    title: plain(words.title, LIMITS.viewTitle),
    submit: plain(words.submit, LIMITS.viewTitle),
    close: plain('Back', LIMITS.viewTitle),
    blocks: [
      ...sections(
        `*\`${view.id}\`*, request id \`${view.requestId}\`\n${what.join('\n')}\n\n${escapeText(words.ask)}`,
      ),
      {
        type: 'input',
        block_id: REASON_BLOCK,
        label: plain('What did you find at the service? The audit log keeps it.'),
        element: {
          type: 'plain_text_input',
          action_id: 'reason',
          multiline: true,
          max_length: 2000,
          placeholder: plain(words.example, LIMITS.placeholder),
        },
      },
    ],
  };
}

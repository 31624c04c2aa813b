import type { ApprovalView } from '../../core/approvals/types.js';
import { whatWillHappen } from '../../present/approval-words.js';
import { escapeText, LIMITS, plain, sections } from '../render/message.js';
import type { ModalView } from '../render/modal.js';
import { APPROVAL_VIEWS } from './ids.js';

/** The block and action of the reason field (inline errors name the block). */
export const REASON_BLOCK = 'reason';
const REASON_ACTION = 'reason';

/** What the modal carries to its submission: the approval, and where to answer the rejecter. */
export interface RejectMetadata {
  i: string;
  /** The clicked message's response_url; none on the App Home. */
  u?: string;
}

export function parseRejectMetadata(text: string): RejectMetadata | undefined {
  try {
    const meta = JSON.parse(text) as Partial<RejectMetadata>;
    if (typeof meta.i !== 'string') return undefined;
    return { i: meta.i, ...(typeof meta.u === 'string' ? { u: meta.u } : {}) };
  } catch {
    return undefined;
  }
}

/** The reason a rejecter typed, from a submission's state. */
export function reasonOf(values: Record<string, Record<string, { value?: string | null }>>): string {
  return values[REASON_BLOCK]?.[REASON_ACTION]?.value ?? '';
}

/** "Why reject it?": the request in words, and a required reason that goes back to the requester. */
export function rejectReasonModal(view: ApprovalView, where: { responseUrl?: string }): ModalView {
  const meta: RejectMetadata = {
    i: view.id,
    ...(where.responseUrl === undefined || where.responseUrl === '' ? {} : { u: where.responseUrl }),
  };
  const what = whatWillHappen(view).map((line) => `• ${escapeText(line)}`);
  return {
    type: 'modal',
    callback_id: APPROVAL_VIEWS.rejectReason,
    private_metadata: JSON.stringify(meta),
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

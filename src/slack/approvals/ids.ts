/** Action and view ids of the approval messages, the reject-reason modal and the App Home. */
export const APPROVAL_ACTIONS = {
  approve: 'bankops_approval_approve',
  reject: 'bankops_approval_reject',
  /** The requester withdraws their own request (App Home). */
  cancel: 'bankops_approval_cancel',
} as const;

export const APPROVAL_VIEWS = {
  /** The modal that asks a rejecter for their reason. */
  rejectReason: 'bankops_approval_reject_reason',
} as const;

/** What a button carries: the approval and the attempt (quote) the clicker was shown. */
export interface DecisionRef {
  i: string;
  a: number;
}

export function parseRef(value: string | undefined): DecisionRef | undefined {
  try {
    const ref = JSON.parse(value ?? '') as Partial<DecisionRef>;
    return typeof ref.i === 'string' && typeof ref.a === 'number' ? { i: ref.i, a: ref.a } : undefined;
  } catch {
    return undefined;
  }
}

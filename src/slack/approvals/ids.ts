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

/** Action and view ids of the approval messages, the reject-reason modal and the App Home. */
export const APPROVAL_ACTIONS = {
  approve: 'bankops_approval_approve',
  reject: 'bankops_approval_reject',
  /** The requester withdraws their own request (App Home). */
  cancel: 'bankops_approval_cancel',
  /** An unresolved approval: the person found it went through at the service. */
  reconcileSent: 'bankops_approval_reconcile_sent',
  /** … found it did not go through. */
  reconcileNotSent: 'bankops_approval_reconcile_not_sent',
  /** … sends it once more with the same request id. */
  reconcileRetry: 'bankops_approval_reconcile_retry',
  /** An approval marked not sent: the same request once more, a fresh approval and quote. */
  askAgain: 'bankops_approval_ask_again',
} as const;

export const APPROVAL_VIEWS = {
  /** The modal that asks a rejecter for their reason. */
  rejectReason: 'bankops_approval_reject_reason',
  /** The modal that asks what someone found at the service, settling an unresolved approval. */
  reconcileReason: 'bankops_approval_reconcile_reason',
} as const;

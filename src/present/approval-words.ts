import type { ApprovalView, Money, PreviewFacts } from '../core/approvals/view-schema.js';
import { formatAmount } from '../core/money.js';
import { payeeHistoryLines } from './payee-history.js';
import { actorName, nameActors } from './people.js';
import { policyDiffLines } from './policy-diff.js';
import { votesWords, waitingForWords } from './quorum-words.js';

/**
 * An approval in words an approver can judge, for every front end (CLI, MCP, Slack): who gets
 * what, from where, what it costs and leaves, the card and its holder, and where it stands now.
 */

/**
 * How a front end writes names, times and quoted text into these words: the CLI as they are, Slack
 * as mentions (`<@U…>`), dates its clients show in each reader's time zone, and escaped text.
 */
export interface Wording {
  /** An actor id (`slack:U…`, `cli:bob`, `system:approvals`) and the person behind it. */
  who(actorId: string, person?: string): string;
  /** An ISO 8601 time. */
  time(iso: string): string;
  /** Text a person or the service wrote (a reason, an error message), made safe to show. */
  text(text: string): string;
}

/** Words for a terminal or an assistant: people by name (`alice (CLI)`), times as ISO 8601. */
export const plainWording: Wording = {
  who: (id) => actorName(id),
  time: (iso) => iso,
  text: (text) => nameActors(text),
};

const list = (parts: readonly (string | undefined)[]): string => parts.filter((p) => p).join(', ');

/** `Rhein Maschinenbau GmbH (DE, EUR, SWIFT, ••••6789)`, or the id and a warning for an unknown payee. */
function payeeWords(payee: Extract<PreviewFacts, { kind: 'payout' }>['payee']): string {
  if (!payee.known || payee.name === undefined) {
    return `${payee.id} (a payee bankops did not create: check this id with the person who asked)`;
  }
  const where = list([payee.country, payee.currency, payee.rail, payee.accountMasked]);
  // A name that ends in brackets of its own (`Jane Doe (ACH)`) gets the facts after a comma.
  if (where === '') return `${payee.name}, ${payee.id}`;
  return payee.name.endsWith(')')
    ? `${payee.name}, ${where}, ${payee.id}`
    : `${payee.name} (${where}), ${payee.id}`;
}

const balanceLine = (balance: { available: Money; after: Money } | undefined, what: string): string[] =>
  balance === undefined
    ? []
    : [`${what}: ${formatAmount(balance.available)} available now, ${formatAmount(balance.after)} after`];

const rateWords = (rate: number | undefined, from: string, to: string): string =>
  rate === undefined || from === to ? '' : ` at ${rate} ${to} per ${from}`;

/**
 * Why it waits, and under which policy: `create_payout of 60000 USD needs 2 approvers with role
 * approver (rule 'large-payouts'); opened under policy version 3`. The rule stays the one of that
 * version whatever changes since (docs/policy.md "Versions").
 */
export function ruleWords(view: Pick<ApprovalView, 'reason' | 'policyVersion'>): string {
  return view.policyVersion === undefined
    ? view.reason
    : `${view.reason}; opened under policy version ${view.policyVersion}`;
}

/** A policy change (`bankops policy propose`): from which version, then each change in words. */
function policyChangeLines(facts: Extract<PreviewFacts, { kind: 'policy_change' }>, verb: string): string[] {
  const lines = policyDiffLines(facts.changes);
  return [
    `${verb} the policy in force from version ${facts.from.version} (sha256 ${facts.from.hash.slice(0, 12)}) to the proposed one (sha256 ${facts.hash.slice(0, 12)})`,
    ...(lines.length === 0 ? ['No change to what the policy says (only its text differs)'] : lines),
  ];
}

/** The lines of what will happen, from the facts the tool gathered when the approval opened. */
export function factLines(facts: PreviewFacts): string[] {
  switch (facts.kind) {
    case 'payout':
      return [
        `Pay ${formatAmount(facts.receive)} to ${payeeWords(facts.payee)}`,
        `From ${facts.sourceAccountId}: ${formatAmount(facts.send)} + fees ${formatAmount(facts.fees)} = total debit ${formatAmount(facts.totalDebit)}${rateWords(facts.rate, facts.send.currency, facts.receive.currency)}`,
        ...balanceLine(facts.balance, `${facts.totalDebit.currency} balance`),
        `Purpose ${facts.purpose}${facts.reference === undefined ? '' : `, reference "${facts.reference}"`}`,
      ];
    case 'conversion':
      return [
        `Sell ${formatAmount(facts.sell)}, buy ${formatAmount(facts.buy)}${rateWords(facts.rate, facts.sell.currency, facts.buy.currency)}${facts.fees === undefined ? '' : `, fees ${formatAmount(facts.fees)}`}`,
        ...balanceLine(facts.balance, `${facts.sell.currency} balance`),
      ];
    case 'card_status': {
      const card = `${facts.cardType === undefined ? '' : `${facts.cardType.toLowerCase()} `}card ${facts.last4 === undefined ? facts.cardId : `••••${facts.last4}`}`;
      return [
        `Set ${card} of ${facts.holder ?? 'its cardholder'} (family ${facts.family}, ${facts.cardId}) from ${facts.from ?? 'its current status'} to ${facts.to}`,
        ...(facts.permanent ? [`${facts.to} is permanent: the card can never be used or reactivated`] : []),
      ];
    }
    case 'wallet_transfer':
      return [
        `Transfer ${formatAmount(facts.amount)} from ${facts.holder ?? facts.cardholderId} (${facts.cardholderId}) to ${facts.to}: "${facts.description}"`,
        ...balanceLine(facts.balance, 'Sender wallet'),
      ];
    case 'policy_change':
      return policyChangeLines(facts, 'Change');
    case 'subscription_delete':
      return [
        `Stop ${facts.type === 'n' ? 'e-mail' : 'webhook'} notifications of ${facts.event} for program ${facts.program}${facts.destination === undefined ? '' : ` (sent to ${facts.destination} today)`}; they stop silently`,
      ];
  }
}

/** The approved limits of a money movement: what the execution may debit and must deliver. */
function boundLine(view: Pick<ApprovalView, 'bound'>): string | undefined {
  const bound = view.bound;
  if (bound === undefined) return undefined;
  const delivers =
    bound.minReceive === undefined ? '' : ` and delivers at least ${formatAmount(bound.minReceive)}`;
  const tolerance = bound.tolerancePercent === 0 ? '' : ` (quoted ± ${bound.tolerancePercent} %)`;
  return `Executes only if a fresh quote debits at most ${formatAmount(bound.max)}${delivers}${tolerance}`;
}

/** What will happen, in lines: the facts when the tool gave them, else its one-line summary. */
export function whatWillHappen(view: ApprovalView): string[] {
  const facts = view.preview?.facts;
  const lines = facts === undefined ? [view.preview?.summary ?? `Run ${view.tool}`] : factLines(facts);
  const bound = boundLine(view);
  const withBound = bound === undefined ? lines : [...lines, bound];
  return [...withBound, ...payeeLines(view)];
}

/** What the core knew of the payee when the payout was asked for (docs/approvals.md "Payee facts"). */
export function payeeLines(view: Pick<ApprovalView, 'preview' | 'createdAt'>): string[] {
  const facts = view.preview?.facts;
  if (facts?.kind !== 'payout' || facts.payee.history === undefined) return [];
  return payeeHistoryLines(facts.payee.history, view.createdAt, facts.payee);
}

/** What ran, in the past: the balance as it was when asked, what was debited. */
function pastFactLines(facts: PreviewFacts): string[] {
  const was = (balance: { available: Money } | undefined, what: string, debited: Money): string[] =>
    balance === undefined
      ? [`Debited ${formatAmount(debited)}`]
      : [`${what} was ${formatAmount(balance.available)} when asked; debited ${formatAmount(debited)}`];
  switch (facts.kind) {
    case 'payout':
      return [
        `Paid ${formatAmount(facts.receive)} to ${payeeWords(facts.payee)}`,
        `From ${facts.sourceAccountId}: ${formatAmount(facts.send)} + fees ${formatAmount(facts.fees)}${rateWords(facts.rate, facts.send.currency, facts.receive.currency)}`,
        ...was(facts.balance, `${facts.totalDebit.currency} balance`, facts.totalDebit),
        `Purpose ${facts.purpose}${facts.reference === undefined ? '' : `, reference "${facts.reference}"`}`,
      ];
    case 'conversion':
      return [
        `Sold ${formatAmount(facts.sell)}, bought ${formatAmount(facts.buy)}${rateWords(facts.rate, facts.sell.currency, facts.buy.currency)}${facts.fees === undefined ? '' : `, fees ${formatAmount(facts.fees)}`}`,
        ...was(facts.balance, `${facts.sell.currency} balance`, facts.totalDebit),
      ];
    case 'card_status': {
      const card = `${facts.cardType === undefined ? '' : `${facts.cardType.toLowerCase()} `}card ${facts.last4 === undefined ? facts.cardId : `••••${facts.last4}`}`;
      return [
        `Set ${card} of ${facts.holder ?? 'its cardholder'} (family ${facts.family}, ${facts.cardId}) from ${facts.from ?? 'its earlier status'} to ${facts.to}`,
        ...(facts.permanent ? [`${facts.to} is permanent: the card can never be used or reactivated`] : []),
      ];
    }
    case 'wallet_transfer':
      return [
        `Transferred ${formatAmount(facts.amount)} from ${facts.holder ?? facts.cardholderId} (${facts.cardholderId}) to ${facts.to}: "${facts.description}"`,
        ...(facts.balance === undefined
          ? []
          : [`Sender wallet was ${formatAmount(facts.balance.available)} when asked`]),
      ];
    case 'policy_change':
      return policyChangeLines(facts, 'Changed');
    case 'subscription_delete':
      return [
        `Stopped ${facts.type === 'n' ? 'e-mail' : 'webhook'} notifications of ${facts.event} for program ${facts.program}`,
      ];
  }
}

/**
 * The approval's lines as they read now: what will happen while it waits (or is refused, expired),
 * what happened once it ran. A message updated in place never says "available now" after the fact.
 */
export function approvalLines(view: ApprovalView): string[] {
  if (view.state !== 'succeeded') return whatWillHappen(view);
  const facts = view.preview?.facts;
  return facts === undefined ? [view.preview?.summary ?? `Ran ${view.tool}`] : pastFactLines(facts);
}

/** "Sent back: the fresh quote debits …, more than …": why the approvers are asked again. */
export function sentBackLine(view: ApprovalView, w: Wording = plainWording): string | undefined {
  if (view.state !== 'pending' || view.attempt < 2 || view.error === undefined) return undefined;
  return `Sent back to the approvers (attempt ${view.attempt}): ${w.text(view.error.message)}. The new quote is above.`;
}

/** Where the money stands after it was sent: "sent", then COMPLETED or FAILED after approval. */
export function settlementLine(view: ApprovalView, w: Wording = plainWording): string | undefined {
  const s = view.settlement;
  if (s === undefined) return undefined;
  switch (s.outcome) {
    case 'settling':
      return `Sent: ${s.kind} ${s.id} is ${s.status} at the service (checked ${w.time(s.checkedAt)})`;
    case 'completed':
      return `Completed: ${s.kind} ${s.id} is ${s.status} at the service`;
    case 'failed':
      return `${s.status} after approval: ${s.kind} ${s.id} did not go through at the service${s.note === undefined ? '' : ` (${w.text(s.note)})`}`;
    case 'unknown':
      return `Outcome unknown: ${s.note === undefined ? `${s.kind} ${s.id} never reached a final status` : w.text(s.note)}`;
  }
}

/**
 * What sending an unresolved approval again can do: it re-sends the stored quote, which the service
 * refuses once expired (about 75 s after it was given); after that the way on is to mark it not
 * sent and ask again, for a fresh quote and a fresh approval.
 */
function quoteWords(view: ApprovalView, w: Wording): string {
  if (view.quoteExpiresAt === undefined) return '';
  return `. ${retryQuoteWords(view.quoteExpiresAt, w)}`;
}

/**
 * Said before anyone sends an unresolved approval again (the status line, Slack's confirm dialog
 * on Send again, `approvals reconcile --retry`): until when the stored quote holds, and the way on
 * once it has expired.
 */
export const retryQuoteWords = (quoteExpiresAt: string, w: Pick<Wording, 'time'> = plainWording): string =>
  `Sending it again re-sends its quote, which holds until ${w.time(quoteExpiresAt)}; after that it can only fail ("quote expired"): if the service has no such request, mark it not sent and ask again, for a fresh quote and a fresh approval`;

/** One line on where the approval stands, for a status line that is updated in place. */
export function statusLine(view: ApprovalView, w: Wording = plainWording): string {
  switch (view.state) {
    case 'pending': {
      return `Waiting for ${waitingForWords(view)} (${votesWords(view)}), until ${w.time(view.expiresAt)}`;
    }
    case 'approved':
    case 'executing':
      return view.retryingUntil === undefined
        ? `Approved; running ${view.tool} now`
        : `Service not answering, retrying until ${w.time(view.retryingUntil)}`;
    case 'succeeded':
      return view.decidedBy === undefined
        ? (settlementLine(view, w) ?? `Done: ${view.tool} ran`)
        : `Done: ${view.tool} went through at the service (reconciled by ${w.who(view.decidedBy)})`;
    case 'failed':
      return `Failed: ${view.error === undefined ? 'see the approval' : w.text(view.error.message)}${view.decidedBy === undefined ? '' : ` (reconciled by ${w.who(view.decidedBy)})`}`;
    case 'rejected':
      return `Rejected by ${view.decidedBy === undefined ? 'an approver' : w.who(view.decidedBy)}: ${w.text(view.decisionReason ?? '')}`;
    case 'cancelled':
      return `Cancelled by ${view.decidedBy === undefined ? 'the requester' : w.who(view.decidedBy)}: ${w.text(view.decisionReason ?? '')}`;
    case 'expired':
      return `Expired at ${w.time(view.expiresAt)} without enough approvals; nothing happened`;
    case 'unresolved':
      return `Outcome unknown: a person must look up request ${view.requestId} at the service and reconcile it${quoteWords(view, w)}`;
  }
}

const ago = (from: string, now: Date): string => {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(from)) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
};

/**
 * Said when an identical request joined a waiting approval instead of opening another: which one,
 * since when, by whom, and how to make a separate request if that is what was meant.
 */
export function joinedLine(view: ApprovalView, asker: string, now = new Date()): string {
  const by = view.requester === asker ? 'you' : actorName(view.requester);
  return `Joined ${view.id}, opened ${ago(view.createdAt, now)} by ${by}: the same request is already ${view.state}. To make a separate one, give it its own idempotency key.`;
}

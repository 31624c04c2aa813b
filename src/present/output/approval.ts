import type { ApprovalEvent, ApprovalView } from '../../core/approvals/types.js';
import type { Registry } from '../../core/registry.js';
import { stateWords } from '../approval-outcome.js';
import { approvalLines, ruleWords, statusLine } from '../approval-words.js';
import { actorName } from '../people.js';
import { roleOrGroupsWords, votesWords } from '../quorum-words.js';
import { type ColumnOf, tableOf } from './columns.js';
import { blocksOf } from './derive.js';
import type { Block, Field, OutputDocument, Value } from './model.js';
import { isRecord } from './schema-walk.js';
import { limitColumns } from './table.js';
import { toolOutputDocument } from './tool-output.js';

/** Approvals as documents: a table of many, a record (with what was asked and what came of it) of one. */

const text = (t: string, kind: Value['kind'] = 'text'): Value => ({ text: t, kind });
const field = (key: string, label: string, value: Value): Field => ({ key, label, value });

/** `1 of 2` approvals of the current attempt. */
const votes = (view: ApprovalView): string => votesWords(view);

/** One line on what an approval is for: the first of what will happen. */
const whatFor = (view: ApprovalView): string => approvalLines(view)[0] ?? view.reason;

/** After the state of an approval run by break-glass: `, break-glass (review open)`. */
const breakGlassMark = ({ breakGlassSummary: said }: ApprovalView): string =>
  said === undefined ? '' : `, break-glass${said.endsWith('; review open') ? ' (review open)' : ''}`;

const COLUMNS: ColumnOf<ApprovalView>[] = [
  { key: 'id', label: 'ID', kind: 'id', rank: 0, cell: (v) => v.id },
  {
    key: 'state',
    label: 'State',
    kind: 'status',
    rank: 1,
    cell: (v) => `${stateWords(v)}${breakGlassMark(v)}`,
  },
  { key: 'tool', label: 'Tool', rank: 3, cell: (v) => v.tool },
  { key: 'requester', label: 'Requester', rank: 5, cell: (v) => actorName(v.requester) },
  { key: 'votes', label: 'Votes', rank: 4, cell: votes },
  { key: 'what', label: 'What', rank: 2, cell: whatFor },
];

export interface ApprovalsListing {
  title?: string;
  /** The most the listing asked for: a full page may not be all, and says so. */
  limit?: number;
  /** How to see more, in the front end's words (`--limit 500`). */
  more?: string;
  /** At most this many columns (all six by default); those left out are named in a note. */
  maxColumns?: number;
  /** Where the columns left out are found, in the front end's words (`--json shows them`). */
  fullResult?: string;
}

/** A table of approvals, newest first as given. */
export function approvalsDocument(
  views: readonly ApprovalView[],
  listing: ApprovalsListing = {},
): OutputDocument {
  const title = listing.title ?? 'Approvals';
  if (views.length === 0) return { title, blocks: [{ type: 'note', text: 'No approvals.', tone: 'info' }] };
  const table = tableOf(views, COLUMNS);
  const full = listing.limit !== undefined && views.length >= listing.limit;
  const note = `Showing the newest ${views.length}; there may be more${listing.more === undefined ? '' : ` (${listing.more})`}.`;
  const fitted = limitColumns(table, listing.maxColumns ?? COLUMNS.length, listing.fullResult);
  return { title, blocks: full ? [...fitted, { type: 'note', text: note, tone: 'warning' }] : fitted };
}

/** `Alice Lee, via slack`; the display name only when it says more than the actor id. */
export function requesterWords(view: ApprovalView): string {
  const name = actorName(view.requester);
  const { displayName } = view.origin;
  return displayName === view.requester || name.startsWith(displayName) ? name : `${displayName}, ${name}`;
}

/** The facts of one approval, in the order an approver reads them. */
function facts(view: ApprovalView): Field[] {
  const out: Field[] = [
    field('id', 'ID', text(view.id, 'id')),
    field('state', 'State', text(view.state, 'status')),
    field('status', 'Status', text(statusLine(view))),
    field('tool', 'Tool', text(view.tool)),
    field('reason', 'Policy', text(ruleWords(view))),
    field('requester', 'Requester', text(requesterWords(view))),
    field('votes', 'Votes', text(`${votes(view)} (${roleOrGroupsWords(view)})`)),
  ];
  if (view.approvals.length > 0)
    out.push(
      field(
        'approvals',
        'Approved by',
        text(
          view.approvals
            .map((a) => `${actorName(a.approver)}${a.signed === true ? ' with passkey' : ''}`)
            .join(', '),
        ),
      ),
    );
  if (view.attempt > 1) out.push(field('attempt', 'Attempt', text(String(view.attempt), 'number')));
  if (view.decidedBy !== undefined)
    out.push(field('decidedBy', 'Decided by', text(actorName(view.decidedBy))));
  if (view.decisionReason !== undefined) out.push(field('decisionReason', 'Why', text(view.decisionReason)));
  if (view.error !== undefined) out.push(field('error', 'Error', text(view.error.message)));
  out.push(
    field('createdAt', 'Created at', text(view.createdAt, 'time')),
    field('expiresAt', 'Expires at', text(view.expiresAt, 'time')),
    field('requestId', 'Request ID', text(view.requestId, 'id')),
  );
  return out;
}

/** One approval: its facts, the input asked for, the quote approvers saw, and the result once run. */
/** What the approvers were shown besides the facts: a quote for money, the card as it was, else details. */
function shownTitle(view: ApprovalView): string {
  switch (view.preview?.facts?.kind) {
    case 'payout':
    case 'conversion':
      return 'Quote shown';
    case 'card_status':
      return 'Card when asked';
    case 'wallet_transfer':
      return 'Wallet when asked';
    default:
      return 'Details shown';
  }
}

export interface ApprovalDocumentOptions {
  registry?: Registry;
  title?: string;
  /** Show the request's input (left out right after the requester typed it). */
  input?: boolean;
  /** Its history, when read: takeovers between processes are shown among the facts. */
  history?: readonly ApprovalEvent[];
}

/** `Taken over: replica b:12 after the lease of a:7 ran out (12 s before), at …`, one per takeover. */
function takeovers(history: readonly ApprovalEvent[]): Field[] {
  return history
    .filter((event) => event.kind === 'taken_over')
    .map((event) =>
      field('takenOver', 'Taken over by', text(`${event.detail ?? 'another process'}, at ${event.at}`)),
    );
}

export function approvalDocument(view: ApprovalView, options: ApprovalDocumentOptions = {}): OutputDocument {
  const { registry, title } = options;
  const blocks: Block[] = [
    { type: 'record', fields: [...facts(view), ...takeovers(options.history ?? [])] },
    // What will happen, in the words every front end uses (approval-words.ts): one bullet a line.
    {
      type: 'note',
      text: approvalLines(view)
        .map((line) => `• ${line}`)
        .join('\n'),
      tone: 'info',
    },
  ];
  if (options.input !== false && Object.keys(view.input).length > 0)
    blocks.push(...blocksOf(view.input, undefined, 'Input'));
  if (view.preview !== undefined && Object.keys(view.preview.details).length > 0)
    blocks.push(...blocksOf(view.preview.details, undefined, shownTitle(view)));
  const tool = registry?.get(view.tool);
  if (view.result !== undefined && isRecord(view.result)) {
    blocks.push(
      ...(tool === undefined
        ? blocksOf(view.result, undefined, 'Result')
        : toolOutputDocument(tool, view.result).blocks.map((b) =>
            b.type === 'note' || b.title !== undefined ? b : { ...b, title: 'Result' },
          )),
    );
  }
  return { title: title ?? `Approval ${view.id}`, blocks };
}

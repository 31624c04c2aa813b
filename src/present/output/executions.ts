import type { Execution } from '../../core/approvals/types.js';
import { type ColumnOf, tableOf } from './columns.js';
import type { OutputDocument } from './model.js';
import { limitColumns } from './table.js';

/**
 * What is being executed now (`bankops approvals executing`): which approval, held by which process
 * and until when, as a lock listing reads. A lease in the past means its holder stopped renewing
 * it: the next recovery pass of any process takes it over.
 */

const COLUMNS: ColumnOf<Execution>[] = [
  { key: 'id', label: 'ID', kind: 'id', rank: 0, cell: (e) => e.id },
  { key: 'tool', label: 'Tool', rank: 3, cell: (e) => e.tool },
  { key: 'owner', label: 'Held by', rank: 1, cell: (e) => e.owner ?? 'nobody (taken at the next recovery)' },
  { key: 'leaseUntil', label: 'Lease until', kind: 'time', rank: 2, cell: (e) => e.leaseUntil },
  { key: 'since', label: 'Since', kind: 'time', rank: 5, cell: (e) => e.since },
  { key: 'sends', label: 'Sends', kind: 'number', rank: 4, cell: (e) => String(e.sends) },
  { key: 'requestId', label: 'Request ID', kind: 'id', rank: 6, cell: (e) => e.requestId },
];

export function executionsDocument(
  executions: readonly Execution[],
  now: Date,
  listing: { maxColumns?: number; fullResult?: string } = {},
): OutputDocument {
  const title = 'Executing now';
  if (executions.length === 0)
    return { title, blocks: [{ type: 'note', text: 'Nothing is being executed.', tone: 'info' }] };
  const fitted = limitColumns(
    tableOf(executions, COLUMNS),
    listing.maxColumns ?? COLUMNS.length,
    listing.fullResult,
  );
  const lapsed = executions.filter(
    (e) => e.leaseUntil !== undefined && Date.parse(e.leaseUntil) <= now.getTime(),
  );
  if (lapsed.length === 0) return { title, blocks: fitted };
  const ids = lapsed.map((e) => e.id).join(', ');
  const text = `The lease of ${ids} has run out: its holder stopped renewing it, and the next recovery pass of any bankops process takes it over.`;
  return { title, blocks: [...fitted, { type: 'note', text, tone: 'warning' }] };
}

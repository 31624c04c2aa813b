import { optional } from '../../core/optional.js';
import type { Column, TableBlock, Value, ValueKind } from './model.js';

/** A column of a table and how each row fills it, defined together so the two cannot drift apart. */
export interface ColumnOf<T> {
  key: string;
  label: string;
  /** The kind of every cell; text when not given. Numbers are right-aligned, the rest left. */
  kind?: ValueKind;
  /** Which columns stay when not all fit the terminal (`limitColumns`): the lowest first. */
  rank?: number;
  cell(row: T): string | null | undefined;
}

/** A cell: an absent or blank text reads as a dash. */
export const cellOf = (text: string | null | undefined, kind: ValueKind = 'text'): Value =>
  text === null || text === undefined || text === '' ? { text: '—', kind: 'empty' } : { text, kind };

/** The table of `rows` under `columns`, every row shown. */
export function tableOf<T>(rows: readonly T[], columns: readonly ColumnOf<T>[]): TableBlock {
  const heads: Column[] = columns.map(({ key, label, kind = 'text', rank }) => ({
    key,
    label,
    kind,
    align: kind === 'number' || kind === 'amount' ? 'right' : 'left',
    ...optional('rank', rank),
  }));
  return {
    type: 'table',
    columns: heads,
    rows: rows.map((row) => columns.map((c) => cellOf(c.cell(row), c.kind))),
    total: rows.length,
  };
}

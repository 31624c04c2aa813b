/**
 * A front-end-neutral document of a tool result: what to show, already worded and formatted, with
 * nothing about how (no ANSI, no padding, no Block Kit). The CLI renders it as text on a terminal
 * (src/cli/render), Slack as Block Kit. Plain TypeScript, no zod: it is built, never parsed.
 */

/** What a value is, so a renderer can align, style or guard it without parsing the text again. */
export type ValueKind =
  /** Free text (names, descriptions, addresses). */
  | 'text'
  /** An identifier (`acc_usd_0001`, a request id): shown whole, never shortened, so it can be copied. */
  | 'id'
  /** Money: grouped, with the currency's ISO 4217 minor digits and its code (`250,000.00 USD`). */
  | 'amount'
  /** Any other number: grouped (`1,800`), rates as given (`1.0852`). */
  | 'number'
  /** A state word of the service or of bankops (`ACTIVE`, `PENDING`, `succeeded`). */
  | 'status'
  /** A masked card or account number (`•••• 4242`): the full number is never in a document. */
  | 'masked'
  /** A date or time, as the service gave it. */
  | 'time'
  /** `yes` or `no`. */
  | 'boolean'
  /** A URL. */
  | 'link'
  /** Nothing: null, an empty string or an empty list (`—`). */
  | 'empty';

/** One formatted value. */
export interface Value {
  /** The text to show, complete and already formatted; never needs further processing. */
  text: string;
  kind: ValueKind;
  /** For `amount`: the number and its currency (when known), for renderers that sort or total. */
  money?: { amount: number; currency?: string };
  /**
   * The value is one of the tool's secret fields (a card-details or PIN link): show it only to the
   * person who asked (never in a channel), and never log it.
   */
  secret?: boolean;
}

/** A labelled value of a record. */
export interface Field {
  /** Dotted path of the value in the tool's output (`balance.availableBalance`). */
  key: string;
  /** For people, sentence case (`Available balance`). */
  label: string;
  value: Value;
}

/** A column of a table: every cell of it has this kind (or `empty`). */
export interface Column {
  /** Dotted path within a row (`merchant.name`). */
  key: string;
  /** For people, sentence case (`Transaction date`). */
  label: string;
  kind: ValueKind;
  /** Numbers and amounts read best right-aligned; the rest left. */
  align: 'left' | 'right';
  /**
   * Which columns stay when not all fit (`limitColumns`): the lowest first. Tables of tool results
   * choose theirs by what the values are (table.ts) and leave this out.
   */
  rank?: number;
}

/** Key/value pairs: one object of the result (a card, an account, a quote). */
export interface RecordBlock {
  type: 'record';
  /** What the record is (`Card`, `Balance`); absent for the result's top-level fields. */
  title?: string;
  fields: Field[];
}

/** A list of like objects (balances, accounts, transactions): one row each. */
export interface TableBlock {
  type: 'table';
  /** What the rows are (`Balances`). */
  title?: string;
  columns: Column[];
  /** One array of cells per row, in the order of `columns`. */
  rows: Value[][];
  /** How many rows the result had; more than `rows.length` when a front end asked for fewer. */
  total: number;
}

/**
 * A sentence about the result: paging (`Page 1 of 3; pageNumber=2 shows the next`), rows or columns
 * left out (`12 more not shown`), what happens next.
 */
export interface NoteBlock {
  type: 'note';
  text: string;
  /** `warning` for what needs attention (a failure, something left out); `info` otherwise. */
  tone: 'info' | 'warning';
}

export type Block = RecordBlock | TableBlock | NoteBlock;

/** A whole result for people: a headline, then blocks in reading order. */
export interface OutputDocument {
  /** One line on what this is or what happened (`Balances`, `create_payout waits for 1 approver`). */
  title: string;
  blocks: Block[];
}

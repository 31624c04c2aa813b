import { currencyOf, formatValue, ownCurrency, type Role, roleOf } from './fields.js';
import { labelOf } from './format.js';
import type { Block, Column, TableBlock, Value } from './model.js';
import { isRecord, type JsonSchema, keysOf } from './schema-walk.js';

/**
 * A list of like objects as a table: one row per object, nested objects flattened one level
 * (`merchant.name`), and the few columns a person scans first (id, name, type, status, amount,
 * time) when there are more than fit. What is left out is said in a note, never dropped silently.
 */

export interface TableOptions {
  /** At most this many columns (8 by default); the rest are named in a note. */
  maxColumns?: number;
  /** At most this many rows; the rest are counted in a note. All by default. */
  maxRows?: number;
  secretFields: readonly string[];
  /** Where the fields a table leaves out are found, in the front end's words (`--json shows them`). */
  fullResult?: string;
}

type Row = Readonly<Record<string, unknown>>;

/** Row keys: scalars and lists of scalars, and the scalars of nested objects as `parent.child`. */
function flatKeys(items: readonly Row[], schema: JsonSchema | undefined): string[] {
  const keys: string[] = [];
  const add = (key: string): void => {
    if (!keys.includes(key)) keys.push(key);
  };
  for (const key of keysOf(schema, items)) {
    const values = items.map((item) => item[key]);
    const nested = values.filter(isRecord);
    if (nested.length > 0) {
      for (const inner of keysOf(undefined, nested)) {
        if (nested.some((n) => n[inner] !== null && typeof n[inner] === 'object')) continue;
        add(`${key}.${inner}`);
      }
      continue;
    }
    if (values.some((v) => Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object'))) continue;
    add(key);
  }
  return keys;
}

const at = (row: Row, key: string): unknown => {
  const [head = '', tail] = key.split('.', 2) as [string, string | undefined];
  if (tail === undefined) return row[head];
  const inner = row[head];
  return isRecord(inner) ? inner[tail] : undefined;
};

const siblingsOf = (row: Row, key: string): Row => {
  const dot = key.indexOf('.');
  if (dot < 0) return row;
  const inner = row[key.slice(0, dot)];
  return isRecord(inner) ? inner : {};
};

/** Groups in the order a person reads a row; `picks` says which to keep first when columns are few. */
const DISPLAY: readonly Role[] = ['id', 'currency', 'name', 'type', 'status', 'amount', 'time', 'masked'];
const PICKS: readonly [Role, number][] = [
  ['id', 1],
  ['currency', 1],
  ['amount', 1],
  ['name', 1],
  ['status', 1],
  ['time', 1],
  ['type', 1],
  ['type', 2],
  ['masked', 1],
  ['amount', 2],
  ['name', 2],
];
const groupOf = (role: Role): number => {
  const index = DISPLAY.indexOf(role);
  return index < 0 ? DISPLAY.length : index;
};

interface Candidate {
  key: string;
  role: Role;
  order: number;
  constant: boolean;
}

function choose(candidates: readonly Candidate[], max: number): Candidate[] {
  if (candidates.length <= max) return [...candidates];
  const chosen = new Set<Candidate>();
  for (const [role, nth] of PICKS) {
    const match = candidates.filter((c) => c.role === role)[nth - 1];
    if (match !== undefined && chosen.size < max) chosen.add(match);
  }
  for (const candidate of candidates) if (chosen.size < max) chosen.add(candidate);
  return candidates.filter((c) => chosen.has(c));
}

/** Display order: by group, then as the schema lists them (constant columns too). */
const display = (columns: readonly Candidate[]): Candidate[] =>
  [...columns].sort((a, b) => groupOf(a.role) - groupOf(b.role) || a.order - b.order);

/** The role of a column: that of its first non-empty value (the first id column is the row's id). */
function candidatesOf(
  items: readonly Row[],
  keys: readonly string[],
  hidden: ReadonlySet<string>,
): Candidate[] {
  const out: Candidate[] = [];
  for (const [order, key] of keys.entries()) {
    if (hidden.has(key)) continue;
    const sample = items.map((row) => at(row, key)).find((v) => v !== null && v !== undefined && v !== '');
    if (sample === undefined || (Array.isArray(sample) && sample.length === 0)) continue;
    let role = roleOf(key, Array.isArray(sample) ? sample[0] : sample);
    // The row's id is its first single id; lists of ids and further ids are details.
    const secondary =
      Array.isArray(sample) || /(code|reference)$/i.test(key) || out.some((c) => c.role === 'id');
    if (role === 'id' && secondary) role = 'text';
    // A column with one value in every row says little per row: it goes after those that vary.
    const texts = new Set(items.map((row) => JSON.stringify(at(row, key) ?? null)));
    out.push({ key, role, order, constant: items.length > 1 && texts.size === 1 });
  }
  return out.sort(
    (a, b) =>
      Number(a.constant) - Number(b.constant) || groupOf(a.role) - groupOf(b.role) || a.order - b.order,
  );
}

/** Currency columns that belong to one amount column only (`txn_currency`): the amount says it. */
function pairedCurrencies(items: readonly Row[], keys: readonly string[]): Set<string> {
  const paired = new Set<string>();
  for (const key of keys) {
    for (const row of items) {
      const { pairedKey } = currencyOf(key.split('.').at(-1) ?? key, siblingsOf(row, key), undefined);
      if (pairedKey !== undefined && roleOf(key, at(row, key)) === 'amount') {
        const dot = key.lastIndexOf('.');
        paired.add(dot < 0 ? pairedKey : `${key.slice(0, dot)}.${pairedKey}`);
      }
    }
  }
  return paired;
}

const ALIGN: Partial<Record<Role, 'right'>> = { amount: 'right', number: 'right', rate: 'right' };

function list(labels: readonly string[], limit = 6): string {
  const shown = labels.slice(0, limit).map((l) => l.toLowerCase());
  return labels.length > limit ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** `(margin balance, frozen balance)`: the first few labels, lower case. */
const leftOut = (count: number, labels: readonly string[], fullResult: string | undefined): string =>
  `${count} more field${count === 1 ? '' : 's'} per row not shown here (${list(labels)}); ${fullResult ?? 'the full result has them'}.`;

/**
 * A table of at most `max` columns, for tables whose columns say their `rank`: the lowest ranks
 * stay, in their order; those left out are named in a note, as for tool results.
 */
export function limitColumns(table: TableBlock, max: number, fullResult?: string): Block[] {
  if (table.columns.length <= max) return [table];
  const keep = table.columns
    .map((column, index) => ({ index, rank: column.rank ?? index }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, max)
    .map((c) => c.index)
    .sort((a, b) => a - b);
  const dropped = table.columns.filter((_, i) => !keep.includes(i)).map((c) => c.label);
  return [
    {
      ...table,
      columns: keep.map((i) => table.columns[i]).filter((c) => c !== undefined),
      rows: table.rows.map((row) => keep.map((i) => row[i]).filter((v) => v !== undefined)),
    },
    { type: 'note', text: leftOut(dropped.length, dropped, fullResult), tone: 'info' },
  ];
}

/** A table block and its notes for `items`, or a note saying the list is empty. */
export function tableBlocks(
  title: string,
  items: readonly Row[],
  itemSchema: JsonSchema | undefined,
  inherited: string | undefined,
  options: TableOptions,
): Block[] {
  if (items.length === 0) return [{ type: 'note', text: `No ${title.toLowerCase()}.`, tone: 'info' }];
  const keys = flatKeys(items, itemSchema);
  const candidates = candidatesOf(items, keys, pairedCurrencies(items, keys));
  const chosen = display(choose(candidates, options.maxColumns ?? 8));
  const columns: Column[] = chosen.map((c) => ({
    key: c.key,
    label: labelOf(c.key.includes('.') && c.role === 'name' ? c.key.replace('.name', '') : c.key),
    kind: formatValue(
      c.key,
      items.map((r) => at(r, c.key)).find((v) => v != null && v !== ''),
      {},
      undefined,
    ).kind,
    align: ALIGN[c.role] ?? 'left',
  }));
  const shown = options.maxRows === undefined ? items : items.slice(0, options.maxRows);
  const rows = shown.map((row) =>
    chosen.map((c): Value => {
      const value = formatValue(c.key, at(row, c.key), siblingsOf(row, c.key), ownCurrency(row) ?? inherited);
      return options.secretFields.includes(c.key.split('.').at(-1) ?? '')
        ? { ...value, secret: true }
        : value;
    }),
  );
  const table: TableBlock = { type: 'table', title, columns, rows, total: items.length };
  const blocks: Block[] = [table];
  const left = candidates.filter((c) => !chosen.includes(c)).map((c) => labelOf(c.key));
  if (left.length > 0) {
    blocks.push({
      type: 'note',
      text: leftOut(left.length, left, options.fullResult),
      tone: 'info',
    });
  }
  if (shown.length < items.length) {
    blocks.push({
      type: 'note',
      text: `${items.length - shown.length} more rows not shown.`,
      tone: 'warning',
    });
  }
  return blocks;
}

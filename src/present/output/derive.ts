import { currencyOf, formatValue, ownCurrency, roleOf } from './fields.js';
import { amountValue, labelOf, numeric } from './format.js';
import type { Block, Field, NoteBlock, OutputDocument } from './model.js';
import { isRecord, itemSchema, type JsonSchema, keysOf, propertySchema } from './schema-walk.js';
import { type TableOptions, tableBlocks } from './table.js';

/**
 * A tool result as a document, derived from the output's JSON Schema and the value: lists of objects
 * become tables, objects records (nested ones their own records, titled by their path), `{amount,
 * currency}` one amount, and a page of a longer list says where it is and how to get the next.
 */

export interface PageInput {
  /** The tool's input field that selects the page (`pageNumber`, `page_num`, `page`). */
  field: string;
  /** The page asked for (1 when not given). */
  page: number;
  /** The page size asked for, if given. */
  size?: number;
}

export interface DeriveOptions extends Partial<TableOptions> {
  /** The document's title (the tool's title). */
  title: string;
  /** Where the result sits in a paged list, for the note on how to get the next page. */
  paging?: PageInput;
}

type Obj = Readonly<Record<string, unknown>>;

const PAGING = new Set([
  'pageNumber',
  'pageSize',
  'total',
  'has_more',
  'total_count',
  'total_pages',
  'totalcount',
  'page',
  'page_num',
  'page_size',
  'size',
]);

const isMoney = (value: unknown): value is { amount: number; currency: string } =>
  isRecord(value) &&
  Object.keys(value).length === 2 &&
  typeof value.amount === 'number' &&
  typeof value.currency === 'string';

/** Currency fields that one amount of this object names as its own (`txn_currency`): the amount shows it. */
function pairedKeys(object: Obj): Set<string> {
  const paired = new Set<string>();
  for (const [key, value] of Object.entries(object)) {
    if (roleOf(key, value) !== 'amount') continue;
    const { pairedKey } = currencyOf(key, object, undefined);
    if (pairedKey !== undefined) paired.add(pairedKey);
  }
  return paired;
}

function pagingNote(top: Obj, rows: number, paging: PageInput | undefined): NoteBlock | undefined {
  const page = numeric(top.pageNumber ?? top.page ?? top.page_num) ?? paging?.page;
  const size = numeric(top.pageSize ?? top.page_size ?? top.size) ?? paging?.size;
  const total = numeric(top.total ?? top.total_count ?? top.totalcount);
  const pages =
    numeric(top.total_pages) ??
    (total !== undefined && size ? Math.max(1, Math.ceil(total / size)) : undefined);
  const known = total !== undefined || pages !== undefined || typeof top.has_more === 'boolean';
  const more = top.has_more === true || (page !== undefined && pages !== undefined && page < pages);
  const maybe = !known && paging !== undefined && rows > 0 && rows === (size ?? 10);
  const parts: string[] = [];
  if (page !== undefined) parts.push(pages === undefined ? `Page ${page}` : `Page ${page} of ${pages}`);
  if (total !== undefined) parts.push(`${total} in all`);
  let next = '';
  if (paging !== undefined && (more || maybe)) {
    next = `; ${paging.field}=${(page ?? paging.page) + 1} ${more ? 'shows the next' : 'may show more'}`;
  }
  if (parts.length === 0 && next === '') return undefined;
  const head = parts.length === 0 ? 'There may be more' : parts.join(', ');
  return { type: 'note', text: `${head}${next}.`, tone: 'info' };
}

function objectBlocks(
  object: Obj,
  schema: JsonSchema | undefined,
  title: string | undefined,
  path: string,
  inherited: string | undefined,
  options: Omit<DeriveOptions, 'title'>,
): Block[] {
  const currency = ownCurrency(object) ?? inherited;
  const secrets = options.secretFields ?? [];
  const tableOptions: TableOptions = { ...options, secretFields: secrets };
  const top = path === '';
  const listed = Object.values(object).some((v) => Array.isArray(v) && v.some(isRecord));
  const paired = pairedKeys(object);
  const fields: Field[] = [];
  const after: Block[] = [];
  let rows = 0;
  for (const key of keysOf(schema, [object])) {
    const raw = object[key];
    const label = labelOf(key);
    const name = top ? label : `${title} › ${label}`;
    if ((top && listed && PAGING.has(key)) || paired.has(key)) continue;
    if (isMoney(raw)) {
      fields.push({ key: `${path}${key}`, label, value: amountValue(raw.amount, raw.currency) });
    } else if (isRecord(raw)) {
      after.push(
        ...objectBlocks(
          raw,
          propertySchema(schema, key),
          title === undefined ? label : name,
          `${path}${key}.`,
          currency,
          options,
        ),
      );
    } else if (Array.isArray(raw) && raw.some(isRecord)) {
      const items = raw.filter(isRecord);
      rows += items.length;
      after.push(
        ...tableBlocks(
          title === undefined ? label : name,
          items,
          itemSchema(propertySchema(schema, key)),
          currency,
          tableOptions,
        ),
      );
    } else {
      const value = formatValue(key, raw, object, currency);
      if (value.kind === 'empty') continue;
      fields.push({
        key: `${path}${key}`,
        label,
        value: secrets.includes(key) ? { ...value, secret: true } : value,
      });
    }
  }
  const blocks: Block[] = [];
  if (fields.length > 0)
    blocks.push(title === undefined ? { type: 'record', fields } : { type: 'record', title, fields });
  blocks.push(...after);
  const note = top && listed ? pagingNote(object, rows, options.paging) : undefined;
  if (note !== undefined) blocks.push(note);
  return blocks;
}

/** The blocks of an object shown as part of another document, its records titled `title`. */
export function blocksOf(
  value: Obj,
  schema: JsonSchema | undefined,
  title: string,
  options: Omit<DeriveOptions, 'title'> = {},
): Block[] {
  return objectBlocks(value, schema, title, `${title}.`, undefined, options);
}

/** The document of one result object. A lone wrapper (`{card: {…}}`) is opened and titled by its key. */
export function documentOf(
  value: Obj,
  schema: JsonSchema | undefined,
  options: DeriveOptions,
): OutputDocument {
  const keys = Object.keys(value);
  const only = keys.length === 1 ? keys[0] : undefined;
  const inner = only === undefined ? undefined : value[only];
  const blocks =
    only !== undefined && isRecord(inner) && !isMoney(inner)
      ? objectBlocks(inner, propertySchema(schema, only), labelOf(only), `${only}.`, undefined, options)
      : objectBlocks(value, schema, undefined, '', undefined, options);
  if (blocks.length === 0)
    blocks.push({ type: 'note', text: 'The result has no fields to show.', tone: 'info' });
  return { title: options.title, blocks };
}

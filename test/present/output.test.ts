import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputJsonSchema } from '../../src/core/registry.js';
import type { AnyTool } from '../../src/core/tool.js';
import { placeholders, toolExample } from '../../src/present/examples.js';
import type {
  Block,
  OutputDocument,
  RecordBlock,
  TableBlock,
  Value,
} from '../../src/present/output/index.js';
import { amountValue, resultDocument, toolOutputDocument } from '../../src/present/output/index.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
  // As under `bankops serve`: the event relays need an address the service delivers to.
  core.runtime.webhooks.servedAt('http://127.0.0.1:9');
});
afterAll(() => core.close());

type Schema = Record<string, unknown>;

/** A value for every field a JSON Schema declares: an output no sandbox call produced. */
function sample(schema: Schema, key = ''): unknown {
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (anyOf !== undefined) return sample(anyOf.find((s) => s.type !== 'null') ?? {}, key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, sample(s, k)]));
    }
    case 'array':
      return [sample((schema.items ?? {}) as Schema, key), sample((schema.items ?? {}) as Schema, key)];
    case 'number':
    case 'integer':
      return 1234.5;
    case 'boolean':
      return true;
    default:
      return /currency|assetcode/i.test(key) ? 'KWD' : `${key || 'value'}-1`;
  }
}

const values = (block: Block): Value[] =>
  block.type === 'record'
    ? block.fields.map((f) => f.value)
    : block.type === 'table'
      ? block.rows.flat()
      : [];

/** What holds for every document: complete texts, formatted amounts, no full card number, tables whole. */
function checkDocument(name: string, doc: OutputDocument): void {
  expect(doc.title, name).toMatch(/\S/);
  expect(doc.blocks.length, name).toBeGreaterThan(0);
  for (const block of doc.blocks) {
    if (block.type === 'table') {
      expect(block.columns.length, name).toBeLessThanOrEqual(8);
      for (const row of block.rows) expect(row.length, name).toBe(block.columns.length);
      expect(block.total, name).toBe(block.rows.length);
    }
    for (const value of values(block)) {
      expect(typeof value.text, name).toBe('string');
      expect(value.text.length, name).toBeGreaterThan(0);
      // A card number (13 to 19 digits in a row) never reaches a document (ids are hex: left out).
      if (value.kind !== 'id') expect(value.text.replace(/[\s-]/g, ''), name).not.toMatch(/\d{13,19}/);
      if (value.kind === 'amount')
        expect(value.text, name).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?( [A-Z]{3})?$/);
    }
  }
}

const table = (doc: OutputDocument, title: string): TableBlock => {
  const found = doc.blocks.find((b): b is TableBlock => b.type === 'table' && b.title === title);
  if (found === undefined) throw new Error(`no table ${title} in ${JSON.stringify(doc)}`);
  return found;
};
const cell = (t: TableBlock, row: number, label: string): string =>
  t.rows[row]?.[t.columns.findIndex((c) => c.label === label)]?.text ?? '(no cell)';
const notes = (doc: OutputDocument): string[] =>
  doc.blocks.flatMap((b) => (b.type === 'note' ? [b.text] : []));
const field = (doc: OutputDocument, label: string, title?: string): string | undefined =>
  doc.blocks
    .flatMap((b) => (b.type === 'record' && b.title === title ? b.fields : []))
    .find((f) => f.label === label)?.value.text;

async function outputOf(tool: string, input: Record<string, unknown>): Promise<OutputDocument> {
  const definition = core.registry.get(tool) as AnyTool;
  return toolOutputDocument(definition, await core.ok(tool, input), { input });
}

describe('the output document of every tool', () => {
  it('renders each example run on a fresh sandbox, and a value of every field of each output schema', async () => {
    const tools = core.registry.list();
    expect(tools.length).toBeGreaterThanOrEqual(66);
    for (const tool of tools) {
      const example = toolExample(tool.name);
      expect(example, `${tool.name} has an example`).toBeDefined();
      if (example === undefined) continue;
      checkDocument(`${tool.name} (schema)`, toolOutputDocument(tool, sample(outputJsonSchema(tool))));
      if (placeholders(example).length > 0) continue;
      core.sandbox.reset();
      // verify_payee needs the role verifier, which the shipped policy gives nobody: refused, named.
      const result = await core.call(tool.name, example.input);
      if (tool.name === 'verify_payee') {
        expect(result).toMatchObject({ status: 'denied' });
        continue;
      }
      expect(['ok', 'pending_approval'], `${tool.name}: ${JSON.stringify(result)}`).toContain(result.status);
      checkDocument(tool.name, resultDocument(core.registry, result, { input: example.input }));
    }
    core.sandbox.reset();
  });
});

describe('values', () => {
  it('formats amounts with the currency’s ISO 4217 minor digits and grouping', () => {
    expect(amountValue(250000, 'USD').text).toBe('250,000.00 USD');
    expect(amountValue(1234, 'JPY').text).toBe('1,234 JPY');
    expect(amountValue(1234.5, 'KWD').text).toBe('1,234.500 KWD');
    expect(amountValue(500000, undefined).text).toBe('500,000');
  });
});

describe('documents of real results', () => {
  it('shows balances as a table with each amount in its currency', async () => {
    const doc = await outputOf('get_balances', {});
    const balances = table(doc, 'Balances');
    expect(balances.columns.map((c) => c.label)).toEqual(
      expect.arrayContaining(['Currency', 'Available balance', 'Frozen balance']),
    );
    expect(cell(balances, 0, 'Currency')).toBe('USD');
    expect(cell(balances, 0, 'Available balance')).toBe('250,000.00 USD');
    const jpy = balances.rows.findIndex((row) => row.some((v) => v.text === 'JPY'));
    expect(cell(balances, jpy, 'Available balance')).toBe('0 JPY');
    expect(balances.columns.find((c) => c.label === 'Available balance')?.align).toBe('right');
  });

  it('gives a nested balance the currency of its account, as a record of its own', async () => {
    const doc = await outputOf('get_account', { accountId: 'acc_eur_0001' });
    expect(field(doc, 'Account ID')).toBe('acc_eur_0001');
    expect(field(doc, 'Available balance', 'Balance')).toBe('120,000.00 EUR');
    expect(field(doc, 'Bank details available')).toBe('yes');
  });

  it('puts a card transaction on one row of a few columns, names the rest, and says how to page', async () => {
    const doc = await outputOf('list_card_transactions_a', { cardId: 'card_demo_ava_virtual', page_size: 5 });
    const items = table(doc, 'Items');
    expect(items.rows).toHaveLength(5);
    expect(items.columns.length).toBeLessThanOrEqual(8);
    expect(cell(items, 0, 'Transaction ID')).toBe('ctx_demo_000012');
    expect(cell(items, 0, 'Merchant')).toBe('Fresh Market');
    expect(cell(items, 0, 'Transaction amount')).toBe('42.00 USD');
    expect(cell(items, 0, 'Masked card number')).toBe('•••• 4242');
    // The currency is in the amount, so its own column is left out rather than listed as missing.
    expect(items.columns.map((c) => c.label)).not.toContain('Transaction currency');
    expect(notes(doc)).toEqual([
      expect.stringMatching(
        /^\d+ more fields per row not shown here \(.*auth code.*\); the full result has them\.$/,
      ),
      'Page 1; page_num=2 shows the next.',
    ]);
  });

  it('says which page of how many, and the field that gets the next', async () => {
    const first = await outputOf('list_accounts', { pageSize: 3 });
    expect(notes(first)).toContain('Page 1 of 2, 5 in all; pageNumber=2 shows the next.');
    const last = await outputOf('list_accounts', { pageSize: 3, pageNumber: 2 });
    expect(notes(last)).toContain('Page 2 of 2, 5 in all.');
    expect(table(last, 'Accounts').rows).toHaveLength(2);
  });

  it('marks a secret link so front ends keep it to the person who asked', async () => {
    const input = {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      cardId: 'card_demo_alice_virtual',
    };
    const doc = await outputOf('get_card_details_link_b', input);
    const link = doc.blocks.flatMap(values).find((v) => v.kind === 'link');
    expect(link).toMatchObject({ secret: true, text: expect.stringMatching(/^https:\/\//) });
  });

  it('words a failure with the service’s message, the facts and what to do', async () => {
    const result = await core.call('get_account', { accountId: 'acc_nope' });
    const doc = resultDocument(core.registry, result);
    expect(doc.title).toBe("get_account refused by the service: account 'acc_nope' not found");
    expect(field(doc, 'HTTP status')).toBe('400');
    expect(field(doc, 'Request ID')).toMatch(/\S/);
    expect(notes(doc).at(-1)).toMatch(/^The service refused the request/);
  });

  it('lists invalid fields one per line, each problem whole', async () => {
    const result = await core.call('get_account', { accountid: 'acc_usd_0001' });
    const doc = resultDocument(core.registry, result);
    expect(doc.title).toBe('Invalid input for get_account');
    const errors = doc.blocks[0] as RecordBlock;
    expect(errors.fields.map((f) => [f.label, f.value.text])).toEqual([
      ['accountid', 'unknown field; did you mean accountId?'],
      ['accountId', 'required'],
    ]);
  });

  it('shows a request waiting for approval with the quote approvers see', async () => {
    const result = await core.call('create_payout', toolExample('create_payout')?.input);
    expect(result.status).toBe('pending_approval');
    const doc = resultDocument(core.registry, result);
    expect(doc.title).toMatch(/^create_payout waits for approval apr_/);
    expect(field(doc, 'Votes')).toBe('0 of 1 (role approver)');
    expect(field(doc, 'Total debit amount', 'Quote shown')).toBe('1,002.00 USD');
    expect(notes(doc).at(-1)).toMatch(
      /^Nothing has happened yet\. Waiting for 1 more approver with role approver \(0 of 1\), until \S+\.$/,
    );
    // What will happen, in the approval words every front end uses: one note, a bullet a line.
    expect(notes(doc).flatMap((n) => n.split('\n'))).toContain(
      '• Executes only if a fresh quote debits at most 1,007.01 USD and delivers at least 995.00 USD (quoted ± 0.5 %)',
    );
  });
});

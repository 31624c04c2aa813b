import { describe, expect, it } from 'vitest';
import { meant } from '../../src/core/meant.js';
import { inputJsonSchema } from '../../src/core/registry.js';
import { inputFromArgs } from '../../src/present/args.js';
import { didYouMean } from '../../src/present/suggest.js';
import { argsOf, toolHelp } from '../../src/present/tool-help.js';
import { createRegistry } from '../../src/tools/index.js';

const registry = createRegistry();
const DEFAULTS = { companyCode: 'CMP-X', programCode: 'PRG-X', agentCode: 'AGT-X', subagentCode: 'SUB-X' };

describe('help for every tool', () => {
  it('lists every input field, and its example is valid input typed back as key=value', () => {
    for (const tool of registry.list()) {
      const help = toolHelp(tool, DEFAULTS);
      expect(help.description, tool.name).toBe(tool.description);
      const top = help.fields.filter((f) => !f.name.includes('.')).map((f) => f.name);
      expect(top, tool.name).toEqual(Object.keys(tool.input.shape));
      for (const f of help.fields) expect(f.type, `${tool.name}.${f.name}`).not.toBe('any');
      const tokens = argsOf(help.example.input);
      expect(inputFromArgs(tokens, inputJsonSchema(tool)), tool.name).toEqual(help.example.input);
      if (help.placeholders.length === 0) {
        const parsed = tool.input.safeParse(help.example.input);
        expect(parsed.success, `${tool.name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
  });

  it('needs a previous call (or a file) for only the few examples that take a value the sandbox cannot know', () => {
    const waiting = registry.list().filter((t) => toolHelp(t).placeholders.length > 0);
    expect(waiting.map((t) => t.name).sort()).toEqual([
      'activate_card_a',
      'delete_balance_alert',
      'get_approval',
      'get_conversion',
      'get_payout',
      'propose_policy',
    ]);
  });

  it('says what an omitted field becomes: the schema default, the configuration or the acting user', () => {
    const payout = toolHelp(registry.get('create_payout')!, DEFAULTS);
    const byName = (name: string) => payout.fields.find((f) => f.name === name);
    expect(byName('companyCode')).toMatchObject({
      required: false,
      default: { text: 'CMP-X', from: 'configuration' },
    });
    expect(byName('side')).toMatchObject({ required: true, allowed: ['SOURCE', 'TARGET'] });
    expect(byName('amount')).toMatchObject({ type: 'number', required: true });
    const assign = toolHelp(registry.get('assign_card_a')!, DEFAULTS);
    expect(assign.fields.find((f) => f.name === 'card_mode')).toMatchObject({
      default: { text: 'SINGLE', from: 'schema' },
    });
    expect(assign.fields.find((f) => f.name === 'created_by')).toMatchObject({ default: { from: 'actor' } });
    expect(assign.fields.find((f) => f.name === 'card_number')?.secret).toBe(true);
  });

  it('lists nested fields with dotted names, required only when their parent is', () => {
    const help = toolHelp(registry.get('create_beneficiary')!);
    const names = help.fields.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['bank', 'bank.accountNumber', 'extras.paymentMethod']));
    expect(help.fields.find((f) => f.name === 'address.city')?.required).toBe(false);
    expect(argsOf(help.example.input)).toContain('bank.extras.clearingSystem=ACH');
  });
});

describe('did you mean', () => {
  const names = registry.names();
  it('names the tool two edits away, or the tools sharing the words typed', () => {
    expect(meant('creat_payout', names)).toEqual(['create_payout']);
    expect(meant('balances', names)).toEqual(['get_balances']);
    expect(meant('get_card_b', names)).toEqual(
      expect.arrayContaining(['get_card_details_b', 'get_card_configuration_b']),
    );
    expect(meant('xyzzy', names)).toEqual([]);
    expect(didYouMean('cal', ['call', 'tools'])).toBe('did you mean call?');
    expect(didYouMean('payout', names)).toBe('did you mean get_payout, quote_payout or create_payout?');
  });

  it('finds the words typed in another order, and a value containing a word typed', () => {
    expect(meant('balances_get', names)).toEqual(['get_balances']);
    expect(meant('payout create', names)).toEqual(['create_payout']);
    const purposes = ['GOODS_PURCHASED', 'SERVICES_RENDERED', 'SALARY_PAYMENT', 'TAX_PAYMENT'];
    expect(meant('purchased goods', purposes)).toEqual(['GOODS_PURCHASED']);
    expect(meant('purchase', purposes)).toEqual(['GOODS_PURCHASED']);
    expect(meant('payment', purposes)).toEqual(['TAX_PAYMENT', 'SALARY_PAYMENT']);
    expect(meant('account', ['sourceAccountId', 'amount', 'beneficiaryId'])).toEqual(['sourceAccountId']);
    expect(meant('xyzzy', purposes)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/tools/index.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

/** The CLI as a new user meets it: short errors, lists that fit, inputs read as typed, help that fits. */

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

const at = (columns: number) => ({ ...home.env, BANKOPS_OUTPUT: 'text', COLUMNS: String(columns) });
const widest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

const PAYOUT = [
  'create_payout',
  'beneficiaryId=ben_de_swift_0001',
  'sourceAccountId=acc_usd_0001',
  'sourceAssetCode=USD',
  'destinationRail=SWIFT',
  'side=SOURCE',
  'purposeCode=GOODS_PURCHASED',
];

describe('short errors stay short', () => {
  it('says a usage mistake in one line and the usage in one more', async () => {
    for (const args of [
      ['approvals', 'approve'],
      ['approvals', 'reject', 'apr_x'],
      ['approvals', 'aprove', 'apr_x'],
      ['call'],
      ['completion'],
    ]) {
      const res = await runCliHere(args, home.env);
      expect(res.code, args.join(' ')).toBe(2);
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(2);
      expect(lines[0]).toMatch(/^bankops: /);
      expect(lines[1]).toMatch(/^usage: bankops /);
    }
    const reject = await runCliHere(['approvals', 'reject', 'apr_x'], home.env);
    expect(reject.stderr).toBe(
      'bankops: approvals reject needs --reason "<why>"\nusage: bankops approvals reject <id> --reason "<why>" [--as <name>] [--json]\n',
    );
  });

  it('has no help line wider than 100 columns, for any command or tool', async () => {
    for (const topic of [
      '',
      'tools',
      'call',
      'approvals',
      'audit',
      'sandbox',
      'mcp',
      'serve',
      'config',
      'completion',
    ]) {
      const res = await runCliHere(topic === '' ? ['help'] : ['help', topic], home.env);
      expect(widest(res.stdout), `help ${topic}`).toBeLessThanOrEqual(100);
    }
    const { renderToolHelp } = await import('../../src/cli/tool-help.js');
    for (const tool of createRegistry().list()) {
      expect(widest(renderToolHelp(tool, undefined)), tool.name).toBeLessThanOrEqual(100);
    }
  });
});

describe('invalid is invalid, read the same everywhere', () => {
  it('refuses an unknown currency before any request, one line a field, exit 2', async () => {
    const res = await runCliHere(
      ['call', ...PAYOUT, 'amount=1000', 'sourceAssetCode=XYZ'].filter((a) => a !== 'sourceAssetCode=USD'),
      at(100),
    );
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(
      /^sourceAssetCode +is not an ISO 4217 currency code, got 'XYZ' \(e\.g\. USD, EUR, GBP\)$/m,
    );
    expect(res.stdout).not.toMatch(/HTTP|Request ID|Operation/);
  });

  it('reads amount=1,000 as a thousand, and words a negative amount and a near value in our words', async () => {
    const res = await runCliHere(['call', ...PAYOUT, 'amount=1,000', '--json'], home.env);
    expect(res.json).toMatchObject({ status: 'pending_approval', approval: { input: { amount: 1000 } } });
    const typed = PAYOUT.filter((a) => !a.startsWith('side=') && !a.startsWith('purposeCode='));
    const wrong = await runCliHere(
      ['call', ...typed, 'amount=-5', 'side=source', 'purposeCode=GOODS'],
      at(120),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toMatch(/^amount +must be more than 0, got -5$/m);
    expect(wrong.stdout).toMatch(/^side +must be SOURCE or TARGET, got 'source'; did you mean SOURCE\?$/m);
    expect(wrong.stdout).toMatch(/did you mean GOODS_PURCHASED\?$/m);
    expect(wrong.stdout).not.toMatch(/Too small|Invalid option|expected/);
  });
});

describe('lists fit the terminal', () => {
  it('audit tail at 100 columns and approvals list at 80 drop columns and say which', async () => {
    const tail = await runCliHere(['audit', 'tail'], at(100));
    expect(tail.code).toBe(0);
    expect(widest(tail.stdout)).toBeLessThanOrEqual(100);
    expect(tail.stdout).toMatch(/more fields? per row not shown here \(.*\); --json shows them\./);
    // People by name; the ids stay in --json and export.
    expect(tail.stdout).toContain('alice (CLI)');
    expect(tail.stdout).not.toMatch(/\bcli:/);
    const list = await runCliHere(['approvals', 'list'], at(80));
    expect(list.code).toBe(0);
    expect(widest(list.stdout)).toBeLessThanOrEqual(80);
    expect(list.stdout).toMatch(/^ID +STATE /m);
    expect(list.stdout).toMatch(/per row not shown here \(.*requester.*\); --json shows them\./);
  });

  it('wraps an approval answer at the terminal, never cutting it', async () => {
    const asked = await runCliHere(['call', ...PAYOUT, 'amount=321', '--json'], home.env);
    const id = String(asked.json.approvalId);
    const own = await runCliHere(['approvals', 'approve', id], at(80));
    expect(own.code).toBe(3);
    expect(widest(own.stdout)).toBeLessThanOrEqual(80);
    expect(own.stdout.replace(/\n {2}/g, ' ')).toBe(
      `Refused: alice (CLI) requested this call and cannot approve it. Another person approves it: bankops approvals approve ${id} --as <name>.\n`,
    );
  });
});

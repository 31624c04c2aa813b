import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.js';
import { renderToolHelp } from '../../src/cli/tool-help.js';
import { toolHelp } from '../../src/present/tool-help.js';
import { createRegistry } from '../../src/tools/index.js';
import { CLI, cliEnv, cliHome, runCli, runInTerminal } from '../helpers/cli.js';

/**
 * Output for people on a terminal, JSON for scripts; help for every tool; typed inputs; suggestions.
 * Through the built binary, a few spawns each (what the words are is tested in test/present).
 */

let home: ReturnType<typeof cliHome>;
let text: Record<string, string>;
beforeAll(() => {
  home = cliHome();
  // The switch that forces readable output where stdout is a pipe (the real terminal is covered below).
  text = { ...home.env, BANKOPS_OUTPUT: 'text', COLUMNS: '160' };
});
afterAll(() => home.cleanup());

describe('on a terminal', () => {
  it('prints balances as a table with each amount in its currency’s decimals, --json and a pipe the JSON, the audit log as a table', async () => {
    const screen = await runInTerminal('bankops call get_balances', home.env);
    expect(screen.code).toBe(0);
    expect(screen.plain).toMatch(/^CURRENCY +STATUS +AVAILABLE BALANCE/m);
    expect(screen.plain).toMatch(/^USD +ACTIVE +250,000\.00 USD/m);
    expect(screen.plain).toMatch(/^JPY +ACTIVE +0 JPY/m);
    expect(screen.plain).not.toContain('"availableBalance"');
    // Titles in bold: a terminal's emphasis, which a pipe never gets.
    expect(screen.screen).toContain('\u001b[1mGet balances per currency');

    const json = await runInTerminal('bankops call get_balances --json', home.env);
    expect(JSON.parse(json.plain)).toMatchObject({ status: 'ok', tool: 'get_balances' });

    const piped = await runCli(['call', 'get_balances'], home.env);
    expect(piped.json.status).toBe('ok');
    const usd = piped.json.output.balances.find((b: { currency: string }) => b.currency === 'USD');
    expect(usd.availableBalance).toBe(250000);

    // The three reads are in the audit log; its tail says what it leaves out.
    const audit = await runCli(['audit', 'tail', '-n', '1'], text);
    expect(audit.stdout).toMatch(/^ *SEQ +TIME +ACTOR +TOOL +EVENT/m);
    expect(audit.stdout).toMatch(
      /^\d+ earlier entr(y is|ies are) not shown: -n <count> shows more, bankops audit export all of them\.$/m,
    );
  });

  it("lays a tool's help out at a readable width on a terminal that gives no size", async () => {
    const screen = await runInTerminal('stty cols 0 rows 0; bankops help create_payout', home.env);
    expect(screen.code).toBe(0);
    const lines = screen.plain.split('\n').filter((line) => line.trim() !== '');
    // One word a line is what a width of 0 made; a real width keeps sentences on their lines.
    expect(lines.filter((line) => line.trim().split(/\s+/).length > 4).length).toBeGreaterThan(
      lines.length / 2,
    );
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
  });

  it('says each field’s problem whole, on a narrow terminal and on one that gives no size', async () => {
    const payout =
      'bankops call create_payout amount=100.123 sourceAccountId=acc_usd_0001 beneficiaryId=ben_us_ach_0001 ' +
      'sourceAssetCode=USD destinationAssetCode=USD destinationRail=ACH side=SOURCE purposeCode=GOODS_PURCHASED';
    for (const size of ['stty cols 40', 'stty cols 0 rows 0']) {
      const screen = await runInTerminal(`${size}; ${payout}`, home.env);
      expect(screen.code).toBe(2);
      // Said whole: on a narrow terminal the line wraps under its label, never cut.
      expect(screen.plain.replace(/\n {2,}/g, ' ')).toMatch(
        /^amount +must have at most 2 decimals for USD \(ISO 4217\), got 100\.123$/m,
      );
      expect(screen.plain).not.toContain('…');
    }
  });

  it('shows accounts and cards as tables, card numbers masked, ids whole, the page said', async () => {
    const accounts = await runCli(['call', 'list_accounts', 'pageSize=3'], text);
    expect(accounts.code).toBe(0);
    expect(accounts.stdout).toMatch(/^ACCOUNT ID +CURRENCY/m);
    expect(accounts.stdout).toMatch(/^acc_usd_0001 +USD /m);
    expect(accounts.stdout).toContain('Page 1 of 2, 5 in all; pageNumber=2 shows the next.');

    const cards = await runCli(
      ['call', 'list_cards_b', 'cardholderId=chb_demo_alice', 'walletId=wal_demo_alice_usd'],
      text,
    );
    expect(cards.stdout).toMatch(/^card_demo_alice_virtual +VIRTUAL +ACTIVE .*•••• 4821$/m);
  });

  it('shows what an approval waits for and the list of approvals, amounts formatted', async () => {
    const requested = await runCli(
      [
        'call',
        'create_payout',
        'beneficiaryId=ben_us_ach_0001',
        'sourceAccountId=acc_usd_0001',
        'sourceAssetCode=USD',
        'destinationRail=ACH',
        'amount=1250.5',
        'side=SOURCE',
        'purposeCode=GOODS_PURCHASED',
      ],
      text,
    );
    expect(requested.code).toBe(0);
    expect(requested.stdout).toMatch(/^create_payout waits for approval apr_\w+$/m);
    expect(requested.stdout).toMatch(/^Votes +0 of 1 \(role approver\)$/m);
    expect(requested.stdout).toMatch(/^ {2}Total debit amount +1,252\.75 USD$/m);
    const list = await runCli(['approvals', 'list'], text);
    expect(list.stdout).toMatch(/^ID +STATE +TOOL +REQUESTER +VOTES +WHAT$/m);
    expect(list.stdout).toMatch(
      /^apr_\w+ +pending +create_payout +alice \(CLI\) +0 of 1 +Pay 1,250\.50 USD/m,
    );
  });
});

describe('help for every tool', () => {
  it('is generated for each tool of the registry: description, every field, an example', () => {
    const defaults = loadConfig({}).defaults;
    for (const tool of createRegistry().list()) {
      const page = renderToolHelp(tool, defaults);
      expect(page, tool.name).toContain(`${tool.name}: ${tool.title}`);
      for (const field of toolHelp(tool).fields)
        expect(page, `${tool.name} ${field.name}`).toContain(`  ${field.name}  `);
      expect(page, tool.name).toMatch(new RegExp(`^ {2}bankops call ${tool.name}( |$)`, 'm'));
    }
  });

  it('answers bankops help <tool>, bankops call <tool> --help and bankops help --help', async () => {
    const help = await runCli(['help', 'create_payout'], { ...home.env, BANKOPS_COMPANY_ID: 'CMP-OTHER' });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('create_payout: Send a payout (toolset banking, write, destructive)');
    expect(help.stdout).toMatch(/^ {2}side {2}SOURCE \| TARGET, required$/m);
    expect(help.stdout).toMatch(
      /^ {2}companyCode {2}string, optional, default CMP-OTHER \(configuration\)$/m,
    );
    const viaCall = await runCli(['call', 'create_payout', '--help'], home.env);
    expect(viaCall.stdout).toContain('bankops call create_payout beneficiaryId=ben_us_ach_0001');
    const meta = await runCli(['help', '--help'], home.env);
    expect(meta.code).toBe(0);
    expect(meta.stdout).toContain('Usage: bankops help [<command> | <tool>]');
  });

  it('prints an example that runs as typed on the embedded sandbox, dotted keys and quoting included', async () => {
    const help = await runCli(['help', 'create_beneficiary'], home.env);
    // The example as the shell reads it: continued lines end in a backslash.
    const example = /^ {2}bankops call create_beneficiary (?:.* \\\n)*.*$/m.exec(help.stdout)?.[0];
    expect(example).toContain("'bank.bankAddress=100 N Tryon St, Charlotte, NC 28255'");
    const ran = await new Promise<{ stdout: string }>((resolve) => {
      execFile(
        'sh',
        ['-c', `bankops() { "${process.execPath}" "${CLI}" "$@"; }; ${example?.trim()}`],
        { env: cliEnv(home.env) },
        (_error, stdout) => resolve({ stdout }),
      );
    });
    // Taken as typed, checked against the corridor, and held for the one approver the shipped
    // policy asks of a new payee.
    expect(JSON.parse(ran.stdout)).toMatchObject({
      status: 'pending_approval',
      tool: 'create_beneficiary',
      approval: { input: { bank: { bankAddress: '100 N Tryon St, Charlotte, NC 28255' } } },
    });
  });
});

describe('did you mean', () => {
  it('suggests the command, tool or subcommand meant', async () => {
    const command = await runCli(['cal', 'get_balances'], home.env);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      "bankops: unknown command 'cal'; did you mean call? (bankops help lists the commands)\n",
    );
    // An unknown tool is still refused (and audited) by the executor; the JSON stays as it was.
    const tool = await runCli(['call', 'creat_payout'], home.env);
    expect(tool.code).toBe(2);
    expect(tool.json.message).toContain("unknown tool 'creat_payout'");
    expect(tool.stderr).toBe('bankops: did you mean create_payout?\n');
    const sub = await runCli(['approvals', 'aprove', 'apr_x'], home.env);
    expect(sub.stderr).toContain("unknown approvals command 'aprove'; did you mean approve?");
  });
});

describe('inputs people can type', () => {
  it('takes key=value arguments read as the schema says, and refuses a token that is not one', async () => {
    const card = [
      'cardholderId=chb_demo_alice',
      'walletId=wal_demo_alice_usd',
      'cardId=card_demo_alice_virtual',
    ];
    // amount_limit is an integer field: `2000` reaches the executor as the number 2000.
    const limit = await runCli(
      [
        'call',
        'update_spend_limit_b',
        ...card,
        'transaction_type=PURCHASE',
        'amount_limit_period=DAY',
        'amount_limit=2000',
      ],
      home.env,
    );
    expect(limit.code).toBe(0);
    const bad = await runCli(['call', 'get_card_details_b', 'cardholderId'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'cardholderId' is not key=value");
  });

  it('reads --input from a file and from standard input, key=value laid on top', async () => {
    const file = join(home.dir, 'card.json');
    writeFileSync(
      file,
      JSON.stringify({ cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd', cardId: 'nope' }),
    );
    const fromFile = await runCli(
      ['call', 'get_card_details_b', '--input', `@${file}`, 'cardId=card_demo_alice_virtual'],
      home.env,
    );
    expect(fromFile.code).toBe(0);
    expect(fromFile.json.output.card.truncated_card_number).toMatch(/4821$/);
    const stdin = await runCli(['call', 'get_balances', '--input', '-'], home.env, {
      stdin: '{"companyCode":"CMP-DEMO"}',
    });
    expect(stdin.json.status).toBe('ok');
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { cliHome, runCliHere } from '../helpers/cli.js';

// `bankops alerts` against a SQLite file and the embedded sandbox kept beside it: every command is
// a process of its own (in this one), the alerts and their audit entries stay in the file.

const home = cliHome();
afterAll(() => home.cleanup());

// The shipped policy's rules; alice an operator, and `viewer` a CLI user who may only read.
const policy = parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
) as {
  actors: unknown[];
};
policy.actors = [
  { match: { cli: 'alice' }, roles: ['viewer', 'operator'] },
  { match: { cli: 'viewer' }, roles: ['viewer'] },
];
const policyPath = join(home.dir, 'policy.yaml');
writeFileSync(policyPath, stringify(policy));
const env = { ...home.env, BANKOPS_POLICY: policyPath };

const run = (...args: string[]) => runCliHere(['alerts', ...args], env);

describe('bankops alerts', () => {
  let id = '';

  it('adds an alert: a currency the company holds, an amount with its decimals, a channel id', async () => {
    const added = await run(
      'add',
      'balance',
      'eur',
      'below',
      '20,000.50',
      '--channel',
      'C0TREASURY',
      '--json',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      status: 'added',
      alert: { currency: 'EUR', below: '20,000.50 EUR', channel: 'C0TREASURY', standing: 'not checked yet' },
    });
    id = added.json.alert.id;
    expect(id).toMatch(/^alr_[0-9a-f]{10}$/);
  });

  it('says what is wrong with an alert that cannot be, and exits 2 (3 when the policy refuses)', async () => {
    const cases: [string[], number, string][] = [
      [['add', 'balance', 'EUR', 'below', 'lots', '--channel', 'C1'], 2, "'lots' is not an amount"],
      [['add', 'balance', 'EUR', 'above', '5', '--channel', 'C1'], 2, 'alerts add reads: alerts add balance'],
      [['add', 'balance', 'EUR', 'below', '5'], 2, 'alerts add needs --channel <id>'],
      [['add', 'balance', 'JPY', 'below', '10.5', '--channel', 'C0FX'], 2, 'must be a whole number for JPY'],
      [
        ['add', 'balance', 'CHF', 'below', '10', '--channel', 'C0FX'],
        2,
        'the account has no CHF balance; it holds',
      ],
      [['add', 'balance', 'EUR', 'below', '10', '--channel', '#fx'], 2, "'#fx' is not a Slack channel id"],
      [['add', 'balance', 'EUR', 'below', '0', '--channel', 'C0FX'], 2, 'must be a positive number'],
      [
        ['add', 'balance', 'EUR', 'below', '10', '--channel', 'C0FX', '--as', 'viewer'],
        3,
        'needs role operator',
      ],
      [['remove', 'alr_0000000000'], 2, 'no alert alr_0000000000 in the SQLite file'],
      [['list', '--channel', 'C1'], 2, '--channel belongs to alerts add'],
      [['silence'], 2, "unknown alerts command 'silence'"],
    ];
    for (const [args, code, message] of cases) {
      const result = await run(...args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr + result.stdout).toContain(message);
    }
    const bad = await runCliHere(['alerts', 'list'], { ...env, BANKOPS_ALERT_INTERVAL: '5 minutes' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('BANKOPS_ALERT_INTERVAL: must be a number and a unit');
    const tooOften = await runCliHere(['alerts', 'list'], { ...env, BANKOPS_ALERT_INTERVAL: '5s' });
    expect(tooOften.stderr).toContain('BANKOPS_ALERT_INTERVAL: must be between 30s and 24h');
  });

  it('lists the alerts, for a viewer too, as text and as JSON', async () => {
    const text = await runCliHere(['alerts', 'list', '--as', 'viewer'], { ...env, BANKOPS_OUTPUT: 'text' });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`${id}\\s+20,000.50 EUR\\s+C0TREASURY\\s+not checked yet\\s+cli:alice`),
    );
    const json = await run('list', '--json');
    expect(json.json.alerts).toHaveLength(1);
  });

  it('removes an alert by its id; the file holds the audit entries of every attempt', async () => {
    const removed = await run('remove', id, '--json');
    expect(removed.code).toBe(0);
    expect(removed.json).toMatchObject({ status: 'removed', alert: { id } });
    expect((await run('list', '--json')).json.alerts).toEqual([]);

    const db = openDatabase(home.dbPath);
    const entries = db
      .prepare(
        "SELECT actor, tool, decision, outcome FROM audit_log WHERE tool LIKE '%balance_alert%' AND outcome IN ('ok', 'failed') ORDER BY seq",
      )
      .all();
    const rows = db.prepare('SELECT count(*) AS n FROM balance_alerts').get();
    db.close();
    expect(rows).toEqual({ n: 0 });
    // How each attempt ended, as the executor records every call: a request refused before it ran
    // (the policy, the input), or run and failed on what it found (no CHF balance, no such alert).
    expect(entries).toEqual([
      { actor: 'cli:alice', tool: 'create_balance_alert', decision: 'allow', outcome: 'ok' },
      // JPY 10.5, CHF, #fx, 0 (what the command line cannot read never reaches the core).
      { actor: 'cli:alice', tool: 'create_balance_alert', decision: 'invalid', outcome: 'failed' },
      { actor: 'cli:alice', tool: 'create_balance_alert', decision: 'allow', outcome: 'failed' },
      { actor: 'cli:alice', tool: 'create_balance_alert', decision: 'invalid', outcome: 'failed' },
      { actor: 'cli:alice', tool: 'create_balance_alert', decision: 'invalid', outcome: 'failed' },
      { actor: 'cli:viewer', tool: 'create_balance_alert', decision: 'deny', outcome: 'failed' },
      { actor: 'cli:alice', tool: 'delete_balance_alert', decision: 'allow', outcome: 'failed' },
      // The lists are reads, on record like every read.
      { actor: 'cli:viewer', tool: 'list_balance_alerts', decision: 'allow', outcome: 'ok' },
      { actor: 'cli:alice', tool: 'list_balance_alerts', decision: 'allow', outcome: 'ok' },
      { actor: 'cli:alice', tool: 'delete_balance_alert', decision: 'allow', outcome: 'ok' },
      { actor: 'cli:alice', tool: 'list_balance_alerts', decision: 'allow', outcome: 'ok' },
    ]);
  });
});

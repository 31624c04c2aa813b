import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';
import { containsSecret } from '../helpers/secrets.js';

/**
 * Secrets planted through the real CLI (PIN, activation code, card number, card-details link,
 * webhook key) must not reach the bankops database file, its WAL, or any log the process wrote,
 * debug logging on. The sandbox keeps them in its own file, as the service would.
 */
describe('secrets never reach the database or the logs', () => {
  let home: ReturnType<typeof cliHome>;
  const stderr: string[] = [];
  const PIN = '4931';
  const NEW_PIN = '8264';
  const CARD_NUMBER = '5300001000000012';
  const ACTIVATION_CODE = '739215';
  const WRONG_CODE = '118877';
  const WEBHOOK_KEY = 'whk_planted_secret_0123456789abcdef';
  let detailsLink = '';

  beforeAll(async () => {
    home = cliHome();
    const env = { ...home.env, BANKOPS_LOG_LEVEL: 'debug' };
    const run = async (tool: string, input: unknown) => {
      const res = await runCli(['call', tool, '--input', JSON.stringify(input)], env);
      stderr.push(res.stderr);
      return res;
    };
    const assigned = await run('assign_card_a', {
      cardholderId: 'cha_demo_ava',
      card_number: CARD_NUMBER,
      card_currency: 'USD',
    });
    expect(assigned.json.status).toBe('ok');
    const cardId = assigned.json.output.cardId as string;
    const wrong = await run('activate_card_a', { cardId, activation_code: WRONG_CODE, pin: PIN });
    expect(wrong.json.status).toBe('failed');
    expect(containsSecret(wrong.stdout, WRONG_CODE)).toBe(false);
    expect(containsSecret(wrong.stdout, PIN)).toBe(false);
    expect(
      (await run('activate_card_a', { cardId, activation_code: ACTIVATION_CODE, pin: PIN })).json.status,
    ).toBe('ok');
    expect((await run('reset_pin_a', { cardId, pin: NEW_PIN })).json.status).toBe('ok');
    const link = await run('get_card_details_link_b', {
      cardholderId: 'chb_demo_alice',
      walletId: 'wal_demo_alice_usd',
      cardId: 'card_demo_alice_virtual',
    });
    expect(link.json.status).toBe('ok');
    detailsLink = link.json.output.url as string;
    expect(detailsLink).toMatch(/^https:\/\//);
    const subscribed = await run('create_subscription', {
      event_name: 'card_create',
      subscription_type: 'w',
      webhook_url: 'http://127.0.0.1:9/hook',
      x_api_key: WEBHOOK_KEY,
    });
    expect(subscribed.json.status).toBe('ok');
  });

  afterAll(() => home.cleanup());

  it('finds a short secret standing on its own, not inside a hash or a timestamp', () => {
    expect(containsSecret('{"pin":"8264"}', NEW_PIN)).toBe(true);
    expect(containsSecret('pin=8264&x', NEW_PIN)).toBe(true);
    expect(containsSecret('"hash":"a98264f0","at":1795000082640', NEW_PIN)).toBe(false);
    expect(containsSecret('"requestId":"0c1d2e3f-1b2c-4931-8264-5d6e7f8a9b0c"', PIN)).toBe(false);
    expect(containsSecret('"requestId":"0c1d2e3f-1b2c-4931-8264-5d6e7f8a9b0c"', NEW_PIN)).toBe(false);
    expect(containsSecret('x5300001000000012y', CARD_NUMBER)).toBe(true);
  });

  it('keeps every planted secret out of the database file and its WAL', () => {
    const files = [home.dbPath, `${home.dbPath}-wal`].filter((file) => existsSync(file));
    expect(files.length).toBeGreaterThan(0);
    const bytes = files.map((file) => readFileSync(file).toString('latin1')).join('');
    // The scan sees what was stored: the tools' names and the redaction marker are there.
    expect(bytes).toContain('assign_card_a');
    expect(bytes).toContain('[REDACTED]');
    for (const secret of [PIN, NEW_PIN, CARD_NUMBER, ACTIVATION_CODE, WRONG_CODE, WEBHOOK_KEY, detailsLink]) {
      expect(containsSecret(bytes, secret), `found ${secret.slice(0, 4)}… in the database`).toBe(false);
    }
  });

  it('keeps every planted secret out of the logs, and the audit export', async () => {
    const logs = stderr.join('\n');
    expect(logs).toContain('"level":"debug"');
    const exported = await runCli(['audit', 'export'], home.env);
    for (const secret of [PIN, NEW_PIN, CARD_NUMBER, ACTIVATION_CODE, WRONG_CODE, WEBHOOK_KEY, detailsLink]) {
      expect(containsSecret(logs, secret), `found ${secret.slice(0, 4)}… in the logs`).toBe(false);
      expect(containsSecret(exported.stdout, secret), `found ${secret.slice(0, 4)}… in the export`).toBe(
        false,
      );
    }
  });
});

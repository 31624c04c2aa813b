import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/core/audit/index.js';
import { REDACTED } from '../../../src/core/redact.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { steppingClock, tempDir } from '../../helpers/audit.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const PIN = '4931';
const ACTIVATION_CODE = 'ACT-7H2K99QX';
const CARD_NUMBER = '4111111111111111';
const CARD_DETAILS_URL = 'https://cards.example.test/reveal/ctk_9f8e7d6c5b4a39281706';
const SET_PIN_URL = 'https://pin.example.test/iframe/setpin_55aa66bb77cc';
const SUBSCRIPTION_KEY = 'whk_live_Zm9vYmFyYmF6cXV4';
const SERVICE_API_KEY = 'svc_key_3c1d0e9f8a7b6c5d';
const ASSIGNMENT_CODE = 'ASGN-55731';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXZhbHVl';

const SECRETS = [
  PIN,
  ACTIVATION_CODE,
  CARD_NUMBER,
  CARD_DETAILS_URL,
  SET_PIN_URL,
  SUBSCRIPTION_KEY,
  SERVICE_API_KEY,
  ASSIGNMENT_CODE,
  BEARER,
];

function bytesOf(path: string): Buffer {
  return existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
}

function leaks(files: string[]): string[] {
  const found: string[] = [];
  for (const path of files) {
    const bytes = bytesOf(path);
    for (const secret of SECRETS) {
      for (const form of [secret, encodeURIComponent(secret)]) {
        if (bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${path}: ${secret}`);
      }
    }
  }
  return found;
}

describe('AuditLog keeps secrets out of the database file', () => {
  it('stores no planted secret in the database or its WAL, in inputs or errors', async () => {
    const file = join(tmp.dir, 'secrets.db');
    const db = openDatabase(file);
    // The clock is fixed so the stored bytes (hashes included) are the same on every run.
    const log = new AuditLog(sqliteStorage(db), { now: steppingClock(), secrets: () => [SERVICE_API_KEY] });

    const activate = await log.append({
      actor: 'cli:alice',
      frontEnd: 'cli',
      tool: 'activate_card_a',
      input: { cardId: 'card_1', activation_code: ACTIVATION_CODE, pin: PIN },
      decision: 'allow',
      event: 'requested',
      outcome: 'pending',
      requestIds: ['req-1'],
    });
    await log.append({
      actor: 'cli:alice',
      frontEnd: 'cli',
      tool: 'activate_card_a',
      input: { cardId: 'card_1', activation_code: ACTIVATION_CODE, pin: PIN },
      decision: 'allow',
      event: 'failed',
      outcome: 'failed',
      requestIds: ['req-1'],
      error: `activation refused for code ${ACTIVATION_CODE} and pin ${PIN} (${encodeURIComponent(ACTIVATION_CODE)})`,
      durationMs: 31,
    });
    await log.append({
      actor: 'mcp:ops-assistant',
      frontEnd: 'mcp',
      tool: 'assign_card_a',
      input: { cardholder_id: 'ch_1', card_number: CARD_NUMBER, nested: [{ cardNumber: CARD_NUMBER }] },
      decision: 'allow',
      event: 'failed',
      outcome: 'failed',
      // the card number also appears in a field that is not a secret field, with spaces
      error: `card 4111 1111 1111 1111 rejected; header Authorization: Bearer ${BEARER}`,
    });
    const tokenLink = await log.append({
      actor: 'slack:U0BOB',
      frontEnd: 'slack',
      tool: 'get_card_token_b',
      input: { cardId: 'card_2', answer: [{ url: CARD_DETAILS_URL }], pinLink: { set_pin_url: SET_PIN_URL } },
      decision: 'allow',
      event: 'executed',
      outcome: 'ok',
      durationMs: 12,
    });
    await log.append({
      actor: 'slack:U0BOB',
      frontEnd: 'slack',
      tool: 'subscribe_webhook',
      input: { event_name: 'card_create', x_api_key: SUBSCRIPTION_KEY, note: `key ${SUBSCRIPTION_KEY}` },
      decision: 'approval_required',
      event: 'requested',
      outcome: 'pending',
      approvalId: 'apr_1',
    });
    await log.append({
      actor: 'system',
      frontEnd: 'system',
      tool: 'issue_token',
      input: { headers: { 'x-api-key': SERVICE_API_KEY, authorization: `Bearer ${BEARER}` } },
      decision: 'allow',
      event: 'failed',
      outcome: 'failed',
      error: `upstream said: invalid key ${SERVICE_API_KEY}`,
    });
    const assign = await log.append(
      {
        actor: 'cli:alice',
        frontEnd: 'cli',
        tool: 'assign_card_b',
        input: { last_four_digit: '1111', code: ASSIGNMENT_CODE },
        decision: 'allow',
        event: 'failed',
        outcome: 'failed',
        error: `assignment code ${ASSIGNMENT_CODE} not recognised`,
      },
      { extraKeys: ['code'] },
    );

    expect(activate.input).toEqual({ cardId: 'card_1', activation_code: REDACTED, pin: REDACTED });
    expect(tokenLink.input).toEqual({
      cardId: 'card_2',
      answer: [{ url: REDACTED }],
      pinLink: { set_pin_url: REDACTED },
    });
    expect(assign.input).toEqual({ last_four_digit: '1111', code: REDACTED });
    expect((await log.tail(10)).map((e) => e.error)).toEqual([
      null,
      `activation refused for code ${REDACTED} and pin ${REDACTED} (${REDACTED})`,
      `card 411111******1111 rejected; header Authorization: Bearer ${REDACTED}`,
      null,
      null,
      `upstream said: invalid key ${REDACTED}`,
      `assignment code ${REDACTED} not recognised`,
    ]);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 7 });

    // While open, the new pages live in the -wal file; after close they are checkpointed into the main file.
    const files = [file, `${file}-wal`, `${file}-shm`];
    expect(bytesOf(`${file}-wal`).length).toBeGreaterThan(0);
    expect(leaks(files)).toEqual([]);
    db.close();
    expect(leaks(files)).toEqual([]);
    // Guard against a vacuous pass: values that were stored are found by the same scan.
    expect(bytesOf(file).includes(Buffer.from('activate_card_a'))).toBe(true);
    expect(bytesOf(file).includes(Buffer.from('411111******1111'))).toBe(true);
  });
});

describe("a read's entry (noted, written later with its batch)", () => {
  it('is redacted by the options given at the call, whatever the caller does with them after', async () => {
    const db = openDatabase(join(tmp.dir, 'noted.db'));
    const log = new AuditLog(sqliteStorage(db), { now: steppingClock() });
    const options = { extraKeys: ['code'], secrets: [ASSIGNMENT_CODE] };
    log.note(
      {
        actor: 'cli:alice',
        frontEnd: 'cli',
        tool: 'get_assignment_b',
        input: { code: ASSIGNMENT_CODE, note: `looked up ${ASSIGNMENT_CODE}` },
        decision: 'allow',
        event: 'executed',
        outcome: 'ok',
      },
      options,
    );
    // The caller reuses its object for another call before the batch is prepared.
    options.extraKeys = [];
    options.secrets = [];
    const [entry] = await log.tail(1);
    expect(entry?.input).toEqual({ code: REDACTED, note: `looked up ${REDACTED}` });
    await log.close();
    db.close();
  });
});

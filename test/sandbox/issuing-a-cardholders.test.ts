import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_HEADERS, address, cardholderBody, DEMO, dobForAge, issuingA } from '../helpers/issuing-a.js';
import { type RunningSandbox, startTestSandbox, tokenFor } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let ia: ReturnType<typeof issuingA>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ia = issuingA(sandbox, await tokenFor(sandbox));
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const create = (body: unknown, headers: Record<string, string | undefined> = AGENT_HEADERS) =>
  ia.post('/card/cardholder', body, headers);

async function expectRefused(body: unknown, ...fragments: string[]): Promise<string> {
  const res = await create(body);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ status: 'error', code: 400 });
  for (const fragment of fragments) expect(res.body.message).toContain(fragment);
  return res.body.message as string;
}

describe('issuing A: create cardholder', () => {
  it('creates a cardholder (201, data [{id}]) with the full Cardholder A shape', async () => {
    const res = await create(cardholderBody({ name: { title: 'Mr', middle_name: "O'Neil-Smith" } }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'success', code: 201 });
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data).toHaveLength(1);
    const id = res.body.data[0].id as string;
    expect(id).toMatch(/^cha_/);

    const got = await ia.get(`/card/cardholder?id=${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toHaveLength(1);
    const ch = got.body.data[0];
    expect(ch).toEqual({
      id,
      email: 'dana.lee@example.test',
      country_code: 'SG',
      mobile_number: '81234567',
      kyc_status: 'PENDING',
      status: 'SUCCESS',
      type: 'INDIVIDUAL',
      postal_address: address(),
      individual: {
        address: address(),
        date_of_birth: '1992-05-17',
        employers: null,
        name: {
          title: 'Mr',
          first_name: 'Dana',
          middle_name: "O'Neil-Smith",
          last_name: 'Lee',
          name_on_card: null,
        },
      },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      review_status: 'PENDING',
    });
  });

  it('keeps an explicit country_code and fills missing optional name parts', async () => {
    const res = await create(cardholderBody({ top: { country_code: 'MY' }, address: { line2: undefined } }));
    expect(res.status).toBe(201);
    const ch = (await ia.get(`/card/cardholder?id=${res.body.data[0].id}`)).body.data[0];
    expect(ch.country_code).toBe('MY');
    expect(ch.individual.address.line2).toBeNull();
    // Absent optional name parts read as null, middle_name included (not "").
    expect(ch.individual.name).toMatchObject({ title: null, middle_name: null, name_on_card: null });
  });

  it('requires the agent-code and subagent-code headers', async () => {
    const noAgent = await create(cardholderBody(), { 'subagent-code': 'SUB-DEMO' });
    expect(noAgent.status).toBe(400);
    expect(noAgent.body.message).toBe('missing required header agent-code');
    const noSub = await create(cardholderBody(), { 'agent-code': 'AGT-DEMO' });
    expect(noSub.status).toBe(400);
    expect(noSub.body.message).toBe('missing required header subagent-code');
  });

  it('accepts ages 18 and 79 and refuses 17 and 80, on the sandbox clock', async () => {
    const now = sandbox.clock.now();
    const at = (years: number) => cardholderBody({ individual: { date_of_birth: dobForAge(now, years) } });
    expect((await create(at(18))).status).toBe(201);
    expect((await create(at(79))).status).toBe(201);
    await expectRefused(at(17), 'individual.date_of_birth', 'at least 18');
    await expectRefused(at(80), 'individual.date_of_birth', 'under 80');
  });

  it('refuses a date of birth that is not a real YYYY-MM-DD date', async () => {
    await expectRefused(
      cardholderBody({ individual: { date_of_birth: '1990-02-30' } }),
      'individual.date_of_birth',
    );
    await expectRefused(cardholderBody({ individual: { date_of_birth: '17/05/1992' } }), 'YYYY-MM-DD');
  });

  it('refuses names with non-English characters, in every name part', async () => {
    await expectRefused(
      cardholderBody({ name: { first_name: 'José' } }),
      'individual.name.first_name',
      'English',
    );
    await expectRefused(cardholderBody({ name: { last_name: '李' } }), 'individual.name.last_name');
    await expectRefused(cardholderBody({ name: { middle_name: 'Zoë' } }), 'individual.name.middle_name');
    await expectRefused(
      cardholderBody({ name: { name_on_card: 'DANA LEE 1' } }),
      'individual.name.name_on_card',
    );
    await expectRefused(
      cardholderBody({ name: { first_name: undefined } }),
      'individual.name.first_name: is required',
    );
  });

  it('refuses missing address fields, naming each', async () => {
    const message = await expectRefused(
      cardholderBody({ address: { city: undefined, postcode: undefined } }),
    );
    expect(message).toContain('individual.address.city: is required');
    expect(message).toContain('individual.address.postcode: is required');
    await expectRefused(cardholderBody({ address: { country: 'Singapore' } }), 'individual.address.country');
    await expectRefused(
      cardholderBody({ individual: { address: undefined } }),
      'individual.address: is required',
    );
  });

  it('refuses a type other than INDIVIDUAL, and missing created_by', async () => {
    await expectRefused(cardholderBody({ top: { type: 'COMPANY' } }), 'type: must be INDIVIDUAL');
    await expectRefused(cardholderBody({ top: { created_by: undefined } }), 'created_by: is required');
  });

  it('refuses a bad email, a mobile number with a plus sign and an unknown country_code', async () => {
    await expectRefused(cardholderBody({ top: { email: 'not-an-email' } }), 'email');
    await expectRefused(cardholderBody({ top: { mobile_number: '+6581234567' } }), 'mobile_number', 'digits');
    await expectRefused(cardholderBody({ top: { country_code: 'XX' } }), 'country_code');
  });

  it('refuses a name that fails screening and stores nothing', async () => {
    await expectRefused(cardholderBody({ name: { last_name: 'Sanctioned' } }), 'name screening');
    const list = await ia.get('/card/cardholder');
    expect(list.body.totalcount).toBe(3);
  });

  it('replays a repeated x-request-id without creating a second cardholder', async () => {
    const requestId = randomUUID();
    const body = cardholderBody();
    const first = await create(body, { ...AGENT_HEADERS, 'x-request-id': requestId });
    const again = await create(body, { ...AGENT_HEADERS, 'x-request-id': requestId });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await ia.get('/card/cardholder')).body.totalcount).toBe(4);
    const other = await create(cardholderBody({ top: { email: 'x@example.test' } }), {
      ...AGENT_HEADERS,
      'x-request-id': requestId,
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('x-request-id');
  });
});

describe('issuing A: read cardholders', () => {
  it('lists with totalcount, status filter and paging (newest first)', async () => {
    const created = await create(cardholderBody());
    const list = await ia.get('/card/cardholder');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ status: 'success', code: 200, totalcount: 4 });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([
      created.body.data[0].id,
      DEMO.chloe,
      DEMO.ben,
      DEMO.ava,
    ]);

    const success = await ia.get('/card/cardholder?status=SUCCESS');
    expect(success.body.totalcount).toBe(2);
    expect(success.body.data.every((c: { status: string }) => c.status === 'SUCCESS')).toBe(true);
    expect((await ia.get('/card/cardholder?status=PENDING')).body.data[0].id).toBe(DEMO.ben);
    expect((await ia.get('/card/cardholder?status=INCOMPLETE')).body.data[0].id).toBe(DEMO.chloe);
    const failed = await ia.get('/card/cardholder?status=FAILED');
    expect(failed.body).toMatchObject({ totalcount: 0, data: [] });

    const page2 = await ia.get('/card/cardholder?page_num=2&page_size=3');
    expect(page2.body.totalcount).toBe(4);
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual([DEMO.ava]);
    const page3 = await ia.get('/card/cardholder?page_num=3&page_size=3');
    expect(page3.body).toMatchObject({ totalcount: 4, data: [] });
  });

  it('refuses an unknown status and out-of-range paging', async () => {
    const bad = await ia.get('/card/cardholder?status=ACTIVE');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status must be one of PENDING, SUCCESS, INCOMPLETE, FAILED');
    expect((await ia.get('/card/cardholder?page_num=0')).body.message).toContain('page_num');
    expect((await ia.get('/card/cardholder?page_size=0')).body.message).toContain('page_size');
    expect((await ia.get('/card/cardholder?page_size=abc')).status).toBe(400);
  });

  it('caps a page_size above 100 to 100 instead of refusing it', async () => {
    const res = await ia.get('/card/cardholder?page_size=101');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(res.body.totalcount);
  });

  it('gets one cardholder by id or by email, as a one-element array without totalcount', async () => {
    const byId = await ia.get(`/card/cardholder?id=${DEMO.ava}`);
    expect(byId.status).toBe(200);
    expect(byId.body.totalcount).toBeUndefined();
    expect(byId.body.data).toHaveLength(1);
    expect(byId.body.data[0]).toMatchObject({ id: DEMO.ava, email: DEMO.avaEmail, kyc_status: 'COMPLETED' });
    const byEmail = await ia.get(`/card/cardholder?email=${encodeURIComponent('AVA.TAN@demo.bankops.test')}`);
    expect(byEmail.body.data.map((c: { id: string }) => c.id)).toEqual([DEMO.ava]);
  });

  it('refuses an unknown id or email with 400', async () => {
    const id = await ia.get('/card/cardholder?id=cha_nope');
    expect(id.status).toBe(400);
    expect(id.body).toMatchObject({ status: 'error', code: 400, message: "cardholder 'cha_nope' not found" });
    const email = await ia.get('/card/cardholder?email=nobody%40example.test');
    expect(email.status).toBe(400);
    expect(email.body.message).toContain('nobody@example.test');
  });

  it('requires the bearer token', async () => {
    const res = await ia.get('/card/cardholder', { authorization: undefined });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('missing required header Authorization');
    const bad = await ia.get('/card/cardholder', { authorization: 'Bearer forged' });
    expect(bad.status).toBe(401);
  });
});

describe('issuing A: update cardholder', () => {
  const patch = (id: string, body: unknown) => ia.patch(`/card/cardholder?id=${id}`, body);

  it('updates mobile_number with country_code (200 without data), leaving other fields', async () => {
    const before = (await ia.get(`/card/cardholder?id=${DEMO.ava}`)).body.data[0];
    const res = await patch(DEMO.ava, {
      mobile_number: '60123456',
      country_code: 'MY',
      updated_by: 'ops-bot',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', message: expect.any(String), code: 200 });
    const after = (await ia.get(`/card/cardholder?id=${DEMO.ava}`)).body.data[0];
    expect(after).toEqual({ ...before, mobile_number: '60123456', country_code: 'MY' });
  });

  it('refuses mobile_number or country_code alone', async () => {
    const mobile = await patch(DEMO.ava, { mobile_number: '60123456', updated_by: 'ops-bot' });
    expect(mobile.status).toBe(400);
    expect(mobile.body.message).toContain('mobile_number and country_code can only be updated together');
    const country = await patch(DEMO.ava, { country_code: 'MY', updated_by: 'ops-bot' });
    expect(country.status).toBe(400);
    expect(country.body.message).toContain('together');
  });

  it('refuses a partial address, naming the missing fields, and replaces a full one', async () => {
    const partial = await patch(DEMO.ben, {
      individual: { address: { city: 'Leeds' } },
      updated_by: 'ops-bot',
    });
    expect(partial.status).toBe(400);
    for (const field of ['line1', 'state', 'country', 'postcode']) {
      expect(partial.body.message).toContain(`individual.address.${field}: is required`);
    }
    const next = {
      line1: '1 Park Row',
      city: 'Leeds',
      state: 'West Yorkshire',
      country: 'GB',
      postcode: 'LS1 5AB',
    };
    const ok = await patch(DEMO.ben, { individual: { address: next }, updated_by: 'ops-bot' });
    expect(ok.status).toBe(200);
    const ch = (await ia.get(`/card/cardholder?id=${DEMO.ben}`)).body.data[0];
    expect(ch.individual.address).toEqual({ ...next, line2: null });
    expect(ch.postal_address).toEqual({ ...next, line2: null });
    expect(ch.mobile_number).toBe('7700900123');
  });

  it('needs a whole name: first_name and last_name, English only, screened', async () => {
    const half = await patch(DEMO.ben, {
      individual: { name: { first_name: 'Benjamin' } },
      updated_by: 'ops',
    });
    expect(half.status).toBe(400);
    expect(half.body.message).toContain('individual.name.last_name: is required');
    const accent = await patch(DEMO.ben, {
      individual: { name: { first_name: 'Benoît', last_name: 'Okafor' } },
      updated_by: 'ops',
    });
    expect(accent.body.message).toContain('individual.name.first_name');
    const screened = await patch(DEMO.ben, {
      individual: { name: { first_name: 'Ben', last_name: 'SANCTIONED' } },
      updated_by: 'ops',
    });
    expect(screened.body.message).toContain('name screening');
    const ok = await patch(DEMO.ben, {
      individual: { name: { first_name: 'Benjamin', last_name: 'Okafor' } },
      updated_by: 'ops',
    });
    expect(ok.status).toBe(200);
    const ch = (await ia.get(`/card/cardholder?id=${DEMO.ben}`)).body.data[0];
    expect(ch.individual.name).toEqual({
      title: null,
      first_name: 'Benjamin',
      middle_name: null,
      last_name: 'Okafor',
      name_on_card: null,
    });
  });

  it('refuses a missing updated_by, an empty update, an underage date of birth and an unknown id', async () => {
    const noAuthor = await patch(DEMO.ava, { email: 'ava@example.test' });
    expect(noAuthor.body.message).toContain('updated_by: is required');
    const empty = await patch(DEMO.ava, { updated_by: 'ops' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('nothing to update');
    const young = await patch(DEMO.ava, {
      individual: { date_of_birth: dobForAge(sandbox.clock.now(), 17) },
      updated_by: 'ops',
    });
    expect(young.body.message).toContain('at least 18');
    const unknown = await patch('cha_nope', { email: 'a@example.test', updated_by: 'ops' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("cardholder 'cha_nope' not found");
    const noId = await ia.patch('/card/cardholder', { email: 'a@example.test', updated_by: 'ops' });
    expect(noId.body.message).toContain('id');
  });
});

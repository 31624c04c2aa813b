import { describe, expect, it } from 'vitest';
import {
  collectSecrets,
  isSecretKey,
  maskCardNumber,
  maskCardNumbersInText,
  REDACTED,
  redact,
  SECRET_KEYS,
  sanitizeJson,
  sanitizeText,
  scrubText,
} from '../../src/core/redact.js';

describe('redact', () => {
  it('replaces the value of every spec secret field, at any depth and in arrays', () => {
    const input = {
      pin: '4931',
      activation_code: 'ACT-1',
      card_number: '4111111111111111',
      data: [{ url: 'https://cards.example/reveal/abc' }, { set_pin_url: 'https://pin.example/x' }],
      subscription: { x_api_key: 'k1', 'x-api-key': 'k2', webhook_url: 'https://hooks.example/in' },
      config: { apiKey: 'k3', token: 'jwt', authorization: 'Bearer jwt' },
      amount: 10,
    };
    expect(redact(input)).toEqual({
      pin: REDACTED,
      activation_code: REDACTED,
      card_number: REDACTED,
      data: [{ url: REDACTED }, { set_pin_url: REDACTED }],
      subscription: { x_api_key: REDACTED, 'x-api-key': REDACTED, webhook_url: 'https://hooks.example/in' },
      config: { apiKey: REDACTED, token: REDACTED, authorization: REDACTED },
      amount: 10,
    });
  });

  it('matches names regardless of case, dashes and underscores', () => {
    expect(redact({ cardNumber: '1', 'Card-Number': '2', PIN: 3, Authorization: 'x', API_KEY: 'y' })).toEqual(
      {
        cardNumber: REDACTED,
        'Card-Number': REDACTED,
        PIN: REDACTED,
        Authorization: REDACTED,
        API_KEY: REDACTED,
      },
    );
    expect(isSecretKey('X-Api-Key')).toBe(true);
    expect(isSecretKey('truncated_card_number')).toBe(false);
    expect(isSecretKey('is_pin_set')).toBe(false);
    expect(isSecretKey('tokenType')).toBe(false);
  });

  it('keeps `code` (the envelope status) unless the caller marks it secret for its tool', () => {
    const answer = { code: 200, status: 'success', data: [{ cardId: 'c1' }] };
    expect(redact(answer)).toEqual(answer);
    expect(redact({ last_four_digit: '1234', code: 'ASSIGN-9' }, ['code'])).toEqual({
      last_four_digit: '1234',
      code: REDACTED,
    });
    expect(SECRET_KEYS).not.toContain('code');
  });

  it('redacts a whole object held by a secret field and keeps null as null', () => {
    expect(redact({ token: { value: 'abc', expires: 1 }, pin: null })).toEqual({
      token: REDACTED,
      pin: null,
    });
  });

  it('returns a deep copy and leaves the original untouched', () => {
    const input = { nested: { pin: '4931', keep: [1, 2] } };
    const copy = redact(input) as { nested: { keep: number[] } };
    expect(input.nested.pin).toBe('4931');
    copy.nested.keep.push(3);
    expect(input.nested.keep).toEqual([1, 2]);
  });

  it('is safe with cycles, errors, dates, bigints and values JSON cannot carry', () => {
    const node: Record<string, unknown> = { name: 'a', pin: '1234' };
    node.self = node;
    node.list = [node, undefined, () => 1];
    const when = new Date('2025-01-02T03:04:05.000Z');
    expect(
      redact({ node, err: new Error('boom'), when, big: 12n, nan: Number.NaN, gone: undefined, fn: () => 1 }),
    ).toEqual({
      node: { name: 'a', pin: REDACTED, self: '[Circular]', list: ['[Circular]', null, null] },
      err: { name: 'Error', message: 'boom' },
      when: '2025-01-02T03:04:05.000Z',
      big: '12',
      nan: null,
    });
  });

  it('keeps a value shared by two branches (only true cycles are cut)', () => {
    const shared = { a: 1 };
    expect(redact({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it('truncates absurd nesting instead of overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i += 1) deep = { deeper: deep };
    expect(JSON.stringify(redact(deep))).toContain('[Truncated]');
  });
});

describe('collectSecrets', () => {
  it('returns the values of secret fields, nested ones included, as strings', () => {
    const secrets = collectSecrets({
      pin: 4931,
      card: { card_number: '4111111111111111' },
      token: { access: 'jwt-a', list: ['jwt-b'] },
      code: 'ASSIGN-9',
      note: 'not a secret',
    });
    expect(secrets.sort()).toEqual(['4111111111111111', '4931', 'jwt-a', 'jwt-b'].sort());
    expect(collectSecrets({ code: 'ASSIGN-9' }, ['code'])).toEqual(['ASSIGN-9']);
  });
});

describe('scrubText', () => {
  it('replaces every occurrence of each known secret of 4+ characters', () => {
    expect(scrubText('pin 4931, again 4931; code ab', ['4931', 'ab'])).toBe(
      `pin ${REDACTED}, again ${REDACTED}; code ab`,
    );
  });

  it('also catches URL-encoded and JSON-escaped forms, longest secret first', () => {
    const link = 'https://cards.example/reveal?t=a b';
    expect(scrubText(`see ${encodeURIComponent(link)}`, [link])).toBe(`see ${REDACTED}`);
    expect(scrubText('{"v":"say \\"hi\\" there"}', ['say "hi" there'])).toBe(`{"v":"${REDACTED}"}`);
    expect(scrubText('key tok_fake_123456', ['tok_fake_1234', 'tok_fake_123456'])).toBe(`key ${REDACTED}`);
  });
});

describe('card numbers', () => {
  it('masks a card number to its first six and last four digits', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111******1111');
    expect(maskCardNumber('4111 1111 1111 1111')).toBe('411111******1111');
    expect(maskCardNumber('5500005555555559123')).toBe('550000*********9123');
    expect(maskCardNumber('1234')).toBe(REDACTED);
  });

  it('masks Luhn-valid digit runs in text and leaves other numbers alone', () => {
    expect(maskCardNumbersInText('card 4111-1111-1111-1111 declined')).toBe('card 411111******1111 declined');
    expect(maskCardNumbersInText('ref 4111111111111112, amount 250000')).toBe(
      'ref 4111111111111112, amount 250000',
    );
    expect(maskCardNumbersInText('pan:4111111111111111; (5555555555554444).')).toBe(
      'pan:411111******1111; (555555******4444).',
    );
  });

  it('masks a card number glued to other text, escaped or encoded', () => {
    for (const [text, masked] of <[string, string][]>[
      ['line1\\n4111111111111111', 'line1\\n411111******1111'],
      ['pan%3D4111111111111111', 'pan%3D411111******1111'],
      ['_4111 1111 1111 1111_', '_411111******1111_'],
      ['card_4111111111111111', 'card_411111******1111'],
      ['ref-4111111111111111', 'ref-411111******1111'],
      ['4111111111111111-declined', '411111******1111-declined'],
      ['pan4111111111111111EUR', 'pan411111******1111EUR'],
      // Digits next to it do not hide it.
      ['card 4111111111111111 12/28', 'card 411111******1111 12/28'],
      ['4111 1111 1111 1111 123', '411111******1111 123'],
      // A long reference is no card number, nor is any part of it.
      ['ref 123456789012345678901234', 'ref 123456789012345678901234'],
    ])
      expect(maskCardNumbersInText(text)).toBe(masked);
  });

  it("leaves bankops's own ids alone, even one holding a Luhn-valid run, and masks a card number beside one", () => {
    // Each holds a run that passes the Luhn check.
    for (const id of [
      'apr_e5842622278323e27bb359c1-1',
      'apr_5842622278323e27bb359c12',
      '41111111-1111-1111-4111-111111111111',
      'idem-5842622278323e27bb359c1aaaaaaaaa',
    ]) {
      const text = `sent again with the same request id ${id} by cli:approver2`;
      expect(maskCardNumbersInText(text)).toBe(text);
      expect(maskCardNumbersInText(`${id} 4111111111111111`)).toBe(`${id} 411111******1111`);
    }
  });
});

describe('sanitizeText and sanitizeJson', () => {
  it('removes bearer credentials and JWT-shaped strings even when not known', () => {
    expect(sanitizeText('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(sanitizeText('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig_x')).toBe(`token ${REDACTED}`);
  });

  it('sanitizes every string and key of a JSON value', () => {
    expect(sanitizeJson({ note: 'pin 4931', list: ['4111111111111111', 3], '4931': true }, ['4931'])).toEqual(
      {
        note: `pin ${REDACTED}`,
        list: ['411111******1111', 3],
        [REDACTED]: true,
      },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { shareRepeatedShapes } from '../../src/mcp/shared-defs.js';
import { ajv } from './helpers.js';

const money = {
  title: 'Money',
  type: 'object',
  properties: { amount: { type: 'number' }, currency: { type: 'string' } },
  required: ['amount', 'currency'],
};

const quote = {
  type: 'object',
  properties: {
    send: money,
    receive: { ...money, description: 'What the payee gets.' },
    fees: money,
    legs: { type: 'array', items: money },
  },
  required: ['send', 'receive'],
};

describe('shareRepeatedShapes', () => {
  it('writes a repeated shape once under $defs, each place keeping its own description', () => {
    const shared = shareRepeatedShapes(quote);
    const { title: _title, ...body } = money;
    expect(shared.$defs).toEqual({ money: body });
    expect(shared.properties).toEqual({
      send: { $ref: '#/$defs/money' },
      receive: { description: 'What the payee gets.', $ref: '#/$defs/money' },
      fees: { $ref: '#/$defs/money' },
      legs: { type: 'array', items: { $ref: '#/$defs/money' } },
    });
    expect(shared.required).toEqual(['send', 'receive']);
    expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(quote).length);
  });

  it('accepts and refuses exactly what the original schema does', () => {
    const original = ajv.compile(quote);
    const rewritten = ajv.compile(shareRepeatedShapes(quote));
    const good = { send: { amount: 1, currency: 'USD' }, receive: { amount: 0.9, currency: 'EUR' } };
    const bad = { send: { amount: '1', currency: 'USD' }, receive: { amount: 0.9 } };
    const badLeg = { ...good, legs: [{ currency: 'USD' }] };
    for (const value of [good, bad, badLeg]) expect(rewritten(value)).toBe(original(value));
    expect(rewritten(good)).toBe(true);
  });

  it('leaves a schema alone where sharing would not make it shorter, and never replaces the root', () => {
    const small = { type: 'object', properties: { x: { type: 'string' } } };
    const twice = { type: 'object', properties: { a: small, b: small } };
    expect(shareRepeatedShapes(twice)).toEqual(twice);
    expect(shareRepeatedShapes(money)).toEqual(money);
  });

  it('gives the same result for the same schema (a stable tools/list)', () => {
    expect(JSON.stringify(shareRepeatedShapes(quote))).toBe(JSON.stringify(shareRepeatedShapes(quote)));
  });

  it('ends when a schema already defines the shape it repeats (a $defs body is not a use of it)', () => {
    const { title: _title, ...body } = money;
    const withDefs = {
      ...quote,
      properties: { ...quote.properties, again: { $ref: '#/$defs/money' } },
      $defs: { money: body },
    };
    const shared = shareRepeatedShapes(withDefs);
    expect(Object.keys(shared.$defs as object)).toEqual(['money', 'money2']);
    const original = ajv.compile(withDefs);
    const rewritten = ajv.compile(shared);
    const value = { send: { amount: 1, currency: 'USD' }, receive: { amount: 2 } };
    expect(rewritten(value)).toBe(original(value));
  });
});

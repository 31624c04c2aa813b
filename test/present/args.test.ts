import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../../src/core/registry.js';
import { ArgsError, inputFromArgs, readNumber, tokenize } from '../../src/present/args.js';
import { createRegistry } from '../../src/tools/index.js';

const registry = createRegistry();
const schemaOf = (name: string) => {
  const tool = registry.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return inputJsonSchema(tool);
};

describe('tokenize', () => {
  it('splits on spaces and keeps quoted values whole', () => {
    expect(tokenize(`card lock  card_1 address.city="New York" note='it''s' x=a\\ b`)).toEqual([
      'card',
      'lock',
      'card_1',
      'address.city=New York',
      'note=its',
      'x=a b',
    ]);
  });

  it('takes the typographic quotes Slack and phones type', () => {
    expect(tokenize('address.city=“New York” name=‘Ann Lee’')).toEqual([
      'address.city=New York',
      'name=Ann Lee',
    ]);
  });

  it('refuses a quote left open', () => {
    expect(() => tokenize('city="New York')).toThrow(ArgsError);
  });

  it('keeps an empty quoted value as an empty token', () => {
    expect(tokenize('reference="" x')).toEqual(['reference=', 'x']);
  });
});

describe('inputFromArgs', () => {
  it('reads values as the field types say: strings stay as typed, numbers and booleans are converted', () => {
    expect(
      inputFromArgs(
        ['cardholderId=007', 'walletId=w', 'cardId=c', 'amount_limit=500'],
        schemaOf('update_spend_limit_b'),
      ),
    ).toEqual({ cardholderId: '007', walletId: 'w', cardId: 'c', amount_limit: 500 });
    expect(
      inputFromArgs(['card_present_transaction_enabled=false'], schemaOf('update_card_configuration_b'))
        .card_present_transaction_enabled,
    ).toBe(false);
  });

  it('builds nested fields from dotted keys and reads JSON for objects', () => {
    const schema = schemaOf('create_beneficiary');
    expect(
      inputFromArgs(['address.city=New York', 'address.country=US', 'bank={"bankCountry":"US"}'], schema),
    ).toEqual({
      address: { city: 'New York', country: 'US' },
      bank: { bankCountry: 'US' },
    });
  });

  it('leaves what the schema cannot place as typed, for the executor to refuse by name', () => {
    expect(inputFromArgs(['cardid=card_1', 'amount=ten'], schemaOf('create_payout'))).toEqual({
      cardid: 'card_1',
      amount: 'ten',
    });
  });

  it('says which token is wrong', () => {
    const schema = schemaOf('create_payout');
    expect(() => inputFromArgs(['card_1'], schema)).toThrow("'card_1' is not key=value");
    expect(() => inputFromArgs(['=x'], schema)).toThrow('no field name');
    expect(() => inputFromArgs(['amount=1', 'amount=2'], schema)).toThrow('amount is given twice');
    expect(() => inputFromArgs(['a.=1'], schema)).toThrow('not a field name');
    expect(() => inputFromArgs(['__proto__.x=1'], schema)).toThrow('not a field name');
    expect(() => inputFromArgs(['bank={"a":'], schemaOf('create_beneficiary'))).toThrow(
      'bank: not valid JSON',
    );
    expect(() => inputFromArgs(['address=x', 'address.city=y'], schemaOf('create_beneficiary'))).toThrow(
      'already given as a value',
    );
  });
});

describe('numbers as people type them, the same in the CLI and Slack', () => {
  it('reads thousands separators in groups of three, and nothing else', () => {
    const schema = { type: 'object', properties: { amount: { type: 'number' } } };
    expect(inputFromArgs(['amount=1,000'], schema)).toEqual({ amount: 1000 });
    expect(inputFromArgs(['amount=1,250,000.50'], schema)).toEqual({ amount: 1250000.5 });
    expect(readNumber('-5')).toBe(-5);
    // Left as typed, for the executor to refuse in words: not a number a person meant clearly.
    expect(inputFromArgs(['amount=1,00'], schema)).toEqual({ amount: '1,00' });
    expect(inputFromArgs(['amount=1.000,50'], schema)).toEqual({ amount: '1.000,50' });
  });
});

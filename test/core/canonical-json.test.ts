import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text for the same value whatever the key order', () => {
    expect(canonicalJson({ amount: 10, currency: 'USD' })).toBe(
      canonicalJson({ currency: 'USD', amount: 10 }),
    );
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, '\u{1F600}': 4, '\uFB33': 5 })).toBe(
      '{"B":2,"b":1,"é":3,"\u{1F600}":4,"\uFB33":5}',
    );
  });

  it('writes numbers and strings as JSON.stringify does', () => {
    expect(canonicalJson([1e21, 0.1, -0, 1.5e-7, 'line\nbreak "q"', null, true])).toBe(
      '[1e+21,0.1,0,1.5e-7,"line\\nbreak \\"q\\"",null,true]',
    );
  });

  it('honours toJSON, drops undefined properties and writes undefined array items as null', () => {
    expect(
      canonicalJson({ at: new Date('2025-01-01T00:00:00.000Z'), gone: undefined, list: [undefined] }),
    ).toBe('{"at":"2025-01-01T00:00:00.000Z","list":[null]}');
  });

  it('refuses what JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow('NaN is not a JSON number');
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow('Infinity is not a JSON number');
    expect(() => canonicalJson({ n: 1n })).toThrow('bigint');
    expect(() => canonicalJson(undefined)).toThrow('no JSON form');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow('circular reference');
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });
});

import fc from 'fast-check';
import { canonicalJson, payloadHash } from './canonical-json';

describe('canonical JSON', () => {
  it('sorts keys at every level and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }, 2] })).toBe('{"a":[{"c":"x","d":null},2],"b":1}');
    expect(canonicalJson(JSON.parse('{ "n": 1.0, "m": -0, "s": "\\u00e7" }'))).toBe('{"m":0,"n":1,"s":"ç"}');
  });

  it('gives the same hash to bodies that differ only in key order or spacing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value, null, 2));
        expect(payloadHash(reordered)).toBe(payloadHash(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
    expect(payloadHash(JSON.parse('{"a":1,"b":2}'))).toBe(payloadHash(JSON.parse('{ "b" : 2 , "a" : 1 }')));
    expect(payloadHash({ a: 1 })).not.toBe(payloadHash({ a: 2 }));
  });
});

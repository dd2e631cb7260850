import { randomBytes } from 'node:crypto';
import { EncryptionKeyError, generateEncryptionKeyEntry, parseEncryptionKeys } from './encryption-keys';

const b64 = (bytes = 32) => randomBytes(bytes).toString('base64');

describe('parseEncryptionKeys', () => {
  it('parses several entries in order; the first is the current key', () => {
    const first = b64();
    const keys = parseEncryptionKeys(`k2:${first}, k1:${b64()}`);
    expect(keys.map((key) => key.id)).toEqual(['k2', 'k1']);
    expect(keys[0].key).toEqual(Buffer.from(first, 'base64'));
  });

  it('accepts url-safe base64 and unpadded keys', () => {
    const raw = randomBytes(32);
    const keys = parseEncryptionKeys(`a:${raw.toString('base64url')}`);
    expect(keys[0].key.equals(raw)).toBe(true);
  });

  it.each([
    ['unset', undefined, /SECRETS_ENCRYPTION_KEYS is required/],
    ['empty', '  ', /SECRETS_ENCRYPTION_KEYS is required/],
    ['no separator', 'abc', /entry 1 must have the form keyId:base64key/],
    ['empty entry', `a:${b64()},,b:${b64()}`, /entry 2 is empty/],
    ['bad id', `a b:${b64()}`, /entry 1 has an invalid key id/],
    ['empty id', `:${b64()}`, /entry 1 has an invalid key id/],
    ['duplicate id', `a:${b64()},a:${b64()}`, /key id "a" appears twice/],
    ['not base64', 'a:!!!notbase64!!!', /key "a" is not base64/],
    ['short key', `a:${b64(16)}`, /key "a" must decode to 32 bytes \(got 16\)/],
    ['long key', `a:${b64(33)}`, /must decode to 32 bytes/],
  ])('refuses %s with a message naming the variable', (_case, raw, message) => {
    expect(() => parseEncryptionKeys(raw)).toThrow(EncryptionKeyError);
    expect(() => parseEncryptionKeys(raw)).toThrow(message);
  });

  it('names another variable when asked', () => {
    expect(() => parseEncryptionKeys('x', 'OTHER_KEYS')).toThrow(/^OTHER_KEYS: /);
  });

  it('never echoes key material in its errors', () => {
    const material = b64(31);
    try {
      parseEncryptionKeys(`a:${material}`);
      fail('expected an error');
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(material);
    }
  });

  it('generates entries it can parse', () => {
    const entry = generateEncryptionKeyEntry('fresh');
    expect(parseEncryptionKeys(entry)[0].id).toBe('fresh');
    expect(() => generateEncryptionKeyEntry('bad:id')).toThrow(EncryptionKeyError);
  });
});

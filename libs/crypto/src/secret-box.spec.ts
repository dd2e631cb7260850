import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { generateEncryptionKeyEntry } from './encryption-keys';
import { isCiphertext, SecretBox, secretBinding, SecretDecryptionError } from './secret-box';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('SecretBox', () => {
  const k1 = key('k1');
  const k2 = key('k2');

  it('round-trips any string, unicode included', () => {
    const box = new SecretBox([k1]);
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (plaintext) => box.decrypt(box.encrypt(plaintext)) === plaintext));
  });

  it('writes v1:<keyId>:<iv>:<tag>:<ciphertext> with a 12-byte IV and a 16-byte tag', () => {
    const ciphertext = new SecretBox([k1]).encrypt('s3cret-value');
    const [version, keyId, iv, tag, body] = ciphertext.split(':');
    expect(version).toBe('v1');
    expect(keyId).toBe('k1');
    expect(Buffer.from(iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(body, 'base64')).toHaveLength('s3cret-value'.length);
    expect(ciphertext).not.toContain('s3cret');
  });

  it('uses a fresh IV each time', () => {
    const box = new SecretBox([k1]);
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('encrypts with the first key and decrypts with any key of the ring', () => {
    const old = new SecretBox([k1]);
    const rotated = new SecretBox([k2, k1]);
    const sealedOld = old.encrypt('old secret');
    expect(rotated.decrypt(sealedOld)).toBe('old secret');
    const sealedNew = rotated.encrypt('new secret');
    expect(rotated.keyIdOf(sealedNew)).toBe('k2');
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.keyIds).toEqual(['k2', 'k1']);
  });

  it('tells which ciphertexts need re-encryption and re-encrypts them under the current key', () => {
    const rotated = new SecretBox([k2, k1]);
    const sealedOld = new SecretBox([k1]).encrypt('value');
    expect(rotated.needsReencryption(sealedOld)).toBe(true);
    const renewed = rotated.reencrypt(sealedOld);
    expect(rotated.needsReencryption(renewed)).toBe(false);
    expect(new SecretBox([k2]).decrypt(renewed)).toBe('value');
  });

  it('refuses a ciphertext under a key it does not hold, naming the key id', () => {
    const sealed = new SecretBox([k1]).encrypt('value');
    expect(() => new SecretBox([k2]).decrypt(sealed)).toThrow(SecretDecryptionError);
    expect(() => new SecretBox([k2]).decrypt(sealed)).toThrow(/no key "k1"/);
  });

  it('refuses a tampered ciphertext, tag or IV', () => {
    const box = new SecretBox([k1]);
    const parts = box.encrypt('value to protect').split(':');
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] ^= 0x01;
      return bytes.toString('base64');
    };
    for (const index of [2, 3, 4]) {
      const tampered = [...parts];
      tampered[index] = flip(tampered[index]);
      expect(() => box.decrypt(tampered.join(':'))).toThrow(SecretDecryptionError);
    }
  });

  it('refuses a ciphertext moved under another key id', () => {
    const sealed = new SecretBox([k1]).encrypt('value').replace(':k1:', ':k2:');
    expect(() => new SecretBox([k1, k2]).decrypt(sealed)).toThrow(/failed authentication/);
  });

  it.each(['', 'plain text', 'v2:k1:a:b:c', 'v3:k1:' + 'A'.repeat(16) + ':' + 'A'.repeat(24) + ':AAAA', 'v1:k1:AAAA:BBBB:CCCC', 'v1::' + 'A'.repeat(16) + ':' + 'A'.repeat(24) + ':'])(
    'refuses malformed input %p',
    (input) => {
      expect(() => new SecretBox([k1]).decrypt(input)).toThrow(SecretDecryptionError);
      expect(isCiphertext(input)).toBe(false);
    },
  );

  it('recognises its own ciphertexts', () => {
    expect(isCiphertext(new SecretBox([k1]).encrypt('x'))).toBe(true);
    expect(isCiphertext(42)).toBe(false);
  });

  it('builds from a key list and refuses an empty ring', () => {
    const box = SecretBox.fromKeyList(`${generateEncryptionKeyEntry('a')},${generateEncryptionKeyEntry('b')}`);
    expect(box.currentKeyId).toBe('a');
    expect(() => new SecretBox([])).toThrow();
    expect(() => SecretBox.fromKeyList(undefined)).toThrow(/SECRETS_ENCRYPTION_KEYS is required/);
  });

  describe('with associated data (a ciphertext bound to its row and field)', () => {
    const field = secretBinding.integrationSecret('7f0c1f9e-0000-4000-8000-000000000001', 'secretKey');

    it('writes v2 and opens only with the same associated data', () => {
      const box = new SecretBox([k1]);
      const sealed = box.encrypt('s3cret', field);
      expect(sealed.startsWith('v2:k1:')).toBe(true);
      expect(isCiphertext(sealed)).toBe(true);
      expect(box.decrypt(sealed, field)).toBe('s3cret');
    });

    it('refuses a ciphertext moved to another row, another field, or another kind of secret', () => {
      const box = new SecretBox([k1]);
      const sealed = box.encrypt('s3cret', field);
      for (const elsewhere of [
        secretBinding.integrationSecret('7f0c1f9e-0000-4000-8000-000000000002', 'secretKey'),
        secretBinding.integrationSecret('7f0c1f9e-0000-4000-8000-000000000001', 'password'),
        secretBinding.webhookSigningSecret('rest_abc'),
      ]) {
        expect(() => box.decrypt(sealed, elsewhere)).toThrow(SecretDecryptionError);
        expect(() => box.decrypt(sealed, elsewhere)).toThrow(/moved from another row or field/);
      }
      expect(() => box.decrypt(sealed)).toThrow(SecretDecryptionError);
      // Relabelled as legacy v1, the tag no longer matches either.
      expect(() => box.decrypt(sealed.replace(/^v2:/, 'v1:'), field)).toThrow(SecretDecryptionError);
    });

    it('still opens legacy v1 ciphertexts, and marks them for re-encryption when the caller binds', () => {
      const box = new SecretBox([k1]);
      const legacy = box.encrypt('old');
      expect(legacy.startsWith('v1:')).toBe(true);
      expect(box.decrypt(legacy, field)).toBe('old');
      expect(box.needsReencryption(legacy)).toBe(false);
      expect(box.needsReencryption(legacy, field)).toBe(true);
      const bound = box.reencrypt(legacy, field);
      expect(bound.startsWith('v2:')).toBe(true);
      expect(box.decrypt(bound, field)).toBe('old');
      expect(box.needsReencryption(bound, field)).toBe(false);
      expect(new SecretBox([k2, k1]).needsReencryption(bound, field)).toBe(true);
    });
  });
});

import fc from 'fast-check';
import { validateIntegrationCreate, validateIntegrationUpdate } from './integration-body';
import { PLATFORM_DEFINITIONS } from '../platforms';
import { PlatformRegistry } from './platform-registry';

const registry = PlatformRegistry.fromEnv({});

const bodies = {
  PLATFORM_A: { platform: 'PLATFORM_A', providerRestaurantId: 'a-1', secretKey: 'secret-a-0001' },
  PLATFORM_B: { platform: 'PLATFORM_B', providerRestaurantId: 'b-1', chainCode: 'chain', username: 'user', password: 'pass-word-1' },
  PLATFORM_C: { platform: 'PLATFORM_C', providerRestaurantId: 'c-1', supplierId: '10', apiKey: 'api-key-c', secretKey: 'secret-c', storeId: '20' },
  PLATFORM_D: { platform: 'PLATFORM_D', providerRestaurantId: 'd-1', providerMerchantId: 'm-1', apiKey: 'api-key-d' },
  THIRD_PARTY: { platform: 'THIRD_PARTY', providerRestaurantId: 'pos-1' },
};

describe('validateIntegrationCreate', () => {
  it.each(Object.entries(bodies))('accepts the full field set of %s and splits secrets from clear fields', (code, body) => {
    const result = validateIntegrationCreate(registry, body);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input.platform.code).toBe(code);
    expect(result.input.providerRestaurantId).toBe(body.providerRestaurantId);
    expect(result.input.isActive).toBeUndefined();
    expect(Object.keys(result.input.secrets).sort()).toEqual(registry.secretFieldNames(code).sort());
    for (const [name, value] of Object.entries(result.input.settings)) expect(body).toHaveProperty(name, value);
  });

  it.each(Object.entries(bodies))('requires every field of %s except isActive', (_code, body) => {
    for (const name of Object.keys(body).filter((key) => key !== 'platform')) {
      const { [name]: _omitted, ...rest } = body as Record<string, string>;
      const result = validateIntegrationCreate(registry, rest);
      expect(result).toEqual({ ok: false, errors: [expect.objectContaining({ field: name, message: expect.stringMatching(/is required/) })] });
    }
  });

  it('refuses fields of another platform, naming their platform', () => {
    const result = validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, chainCode: 'x', apiKey: 'y' });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'chainCode', message: 'is not a field of PLATFORM_A (it belongs to PLATFORM_B)' },
        { field: 'apiKey', message: 'is not a field of PLATFORM_A (it belongs to PLATFORM_C, PLATFORM_D)' },
      ],
    });
  });

  it('takes PLATFORM_D\'s optional encryptionMode (ECB or CBC) or none, and refuses another value', () => {
    expect(validateIntegrationCreate(registry, bodies.PLATFORM_D)).toMatchObject({ ok: true, input: { settings: { providerMerchantId: 'm-1' } } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, encryptionMode: 'CBC' })).toMatchObject({ ok: true, input: { settings: { encryptionMode: 'CBC' } } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, encryptionMode: 'GCM' })).toEqual({ ok: false, errors: [{ field: 'encryptionMode', message: 'must be ECB or CBC' }] });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_D', { encryptionMode: 'ECB' })).toMatchObject({ ok: true, input: { settings: { encryptionMode: 'ECB' } } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, encryptionMode: 'ECB' })).toMatchObject({ ok: false, errors: [{ field: 'encryptionMode', message: 'is not a field of PLATFORM_A (it belongs to PLATFORM_D)' }] });
  });

  it('refuses unknown fields, unknown platforms and a missing platform', () => {
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, colour: 'red' })).toEqual({ ok: false, errors: [{ field: 'colour', message: 'is not allowed' }] });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, platform: 'PLATFORM_Z' })).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, platform: 'platform_d' })).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, platform: 7 })).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
    const { platform: _p, ...withoutPlatform } = bodies.PLATFORM_D;
    expect(validateIntegrationCreate(registry, withoutPlatform)).toMatchObject({ ok: false, errors: [{ field: 'platform', message: expect.stringMatching(/is required/) }] });
  });

  it.each([
    ['empty', '', 'must not be empty'],
    ['blank', '   ', 'must not be empty'],
    ['a number', 42, 'must be a string'],
    ['null', null, 'must be a string'],
    ['an object', { nested: true }, 'must be a string'],
    ['too long', 'x'.repeat(1025), 'must be at most 1024 characters'],
    ['a NUL character', 'abc\u0000def', 'must not contain control characters'],
    ['a newline', 'abc\ndef', 'must not contain control characters'],
  ])('refuses a secret that is %s', (_case, value, message) => {
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, secretKey: value })).toEqual({ ok: false, errors: [{ field: 'secretKey', message }] });
  });

  it('limits providerRestaurantId to 128 and identifiers to 256 characters', () => {
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, providerRestaurantId: 'x'.repeat(129) })).toMatchObject({ ok: false });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_B, chainCode: 'x'.repeat(257) })).toMatchObject({ ok: false });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_B, chainCode: 'x'.repeat(256) })).toMatchObject({ ok: true });
  });

  it('takes isActive as a boolean only', () => {
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, isActive: false })).toMatchObject({ ok: true, input: { isActive: false } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, isActive: 'false' })).toEqual({ ok: false, errors: [{ field: 'isActive', message: 'must be a boolean' }] });
  });

  it('refuses bodies that are not objects, and is not fooled by inherited names', () => {
    for (const body of [null, undefined, [], 'text', 3, true]) {
      expect(validateIntegrationCreate(registry, body)).toEqual({ ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] });
    }
    const proto = JSON.parse('{"platform":"PLATFORM_A","providerRestaurantId":"x","secretKey":"y","__proto__":{"isActive":"yes"},"constructor":1}');
    expect(validateIntegrationCreate(registry, proto)).toMatchObject({ ok: false, errors: [{ field: '__proto__' }, { field: 'constructor' }] });
    expect(validateIntegrationCreate(registry, { platform: 'toString' })).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
  });

  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom('platform', 'providerRestaurantId', 'isActive', ...registry.credentialFieldNames(), 'x'), fc.anything())), (body) => {
        const result = validateIntegrationCreate(registry, body);
        return result.ok || result.errors.length > 0;
      }),
      { numRuns: 2000 },
    );
  });

  it('follows renamed wire codes', () => {
    const renamed = PlatformRegistry.fromEnv({ PLATFORM_B_CODE: 'YS' }, PLATFORM_DEFINITIONS);
    expect(validateIntegrationCreate(renamed, { ...bodies.PLATFORM_B, platform: 'YS' })).toMatchObject({ ok: true, input: { platform: { code: 'PLATFORM_B' } } });
    expect(validateIntegrationCreate(renamed, bodies.PLATFORM_B)).toMatchObject({ ok: false });
  });
});

describe('validation options and read-only fields', () => {
  it('applies refuseSecret to secret fields only, alongside the other errors', () => {
    const refuseSecret = (value: string) => (value.startsWith('****') ? 'holds a mask' : undefined);
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_B, password: '****1234', chainCode: '****5678' }, { refuseSecret })).toEqual({
      ok: false,
      errors: [{ field: 'password', message: 'holds a mask' }],
    });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { id: 'x', apiKey: '****1234', secretKey: 'fine-secret' }, { refuseSecret })).toEqual({
      ok: false,
      errors: [
        { field: 'id', message: 'is read-only' },
        { field: 'apiKey', message: 'holds a mask' },
      ],
    });
  });
});

describe('validateIntegrationUpdate', () => {
  it('accepts any subset of the platform fields, a body with only password included', () => {
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', { password: 'new-password' })).toEqual({
      ok: true,
      input: expect.objectContaining({ secrets: { password: 'new-password' }, settings: {} }),
    });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', {})).toMatchObject({ ok: true });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', undefined)).toMatchObject({ ok: true });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { storeId: '99', isActive: false, providerRestaurantId: 'c-2' })).toMatchObject({
      ok: true,
      input: { settings: { storeId: '99' }, isActive: false, providerRestaurantId: 'c-2' },
    });
  });

  it('refuses foreign fields, bad values and a platform change', () => {
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', { secretKey: 'x' })).toMatchObject({ ok: false, errors: [{ field: 'secretKey' }] });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', { password: '' })).toMatchObject({ ok: false, errors: [{ field: 'password', message: 'must not be empty' }] });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', { platform: 'PLATFORM_A' })).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', { platform: 'PLATFORM_B', username: 'u' })).toMatchObject({ ok: true });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_B', [])).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
    expect(validateIntegrationUpdate(registry, 'PLATFORM_GONE', {})).toMatchObject({ ok: false, errors: [{ field: 'platform' }] });
  });
});

describe('PLATFORM_C supplierId (sent in the User-Agent header)', () => {
  // Surrounding white space is trimmed first (the identifier rule): the unsafe spaces are inside.
  const unsafe = ['1045 23', 'Ünlü', 'sup plier', '104\u00a0523', 'İstanbul-1', '😀', 'a'.repeat(65), 'a/b', 'a:b'];

  it.each(unsafe)('refuses %j on create and on update, naming the field', (supplierId) => {
    const expected = { ok: false, errors: [{ field: 'supplierId', message: expect.stringMatching(/letters, digits|at most 64/) }] };
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_C, supplierId })).toMatchObject(expected);
    expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { supplierId })).toMatchObject(expected);
  });

  it('accepts the platform\'s numeric ids and plain identifiers', () => {
    for (const supplierId of ['104523', 'sup-7', 'a.b_c']) expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { supplierId })).toMatchObject({ ok: true, input: { settings: { supplierId } } });
  });

  it('trims surrounding white space and refuses bidi, zero-width and C1 characters in ids, naming the field; secrets are kept as sent', () => {
    expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { supplierId: ' 104523\u00a0', providerRestaurantId: '\u3000Cafe\u0301 ' })).toMatchObject({
      ok: true,
      input: { providerRestaurantId: 'Café', settings: { supplierId: '104523' } },
    });
    for (const [field, value] of [['providerRestaurantId', 'x\u202ey'], ['storeId', 'x\u200by'], ['supplierId', 'x\u0085']]) {
      expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { [field]: value })).toEqual({ ok: false, errors: [{ field, message: expect.stringContaining('bidirectional or zero-width') }] });
    }
    expect(validateIntegrationUpdate(registry, 'PLATFORM_C', { secretKey: ' secret-with-spaces ' })).toMatchObject({ ok: true, input: { secrets: { secretKey: ' secret-with-spaces ' } } });
  });
});


describe('header-bound credential fields', () => {
  const headerBound = PLATFORM_DEFINITIONS.flatMap((platform) => platform.fields.filter((field) => field.sentInHeader).map((field) => [platform.code, field.name, field.sentInHeader!] as const));

  it('are declared for every field an adapter puts into a header as it is', () => {
    expect(headerBound).toEqual([
      ['PLATFORM_C', 'supplierId', 'User-Agent'],
      ['PLATFORM_D', 'apiKey', 'XApiKey'],
    ]);
  });

  it.each(headerBound)('%s %s: a value a header cannot carry is refused at create and at update', (code, name) => {
    const body = bodies[code as keyof typeof bodies];
    // An id's surrounding spaces are trimmed (the identifier rule); a secret's are refused, as sent.
    const secret = PLATFORM_DEFINITIONS.find((platform) => platform.code === code)!.fields.find((field) => field.name === name)!.secret;
    for (const value of ['anahtar-şifre-ğüç', 'schlüssel', 'key\u00a0x', ...(secret ? [' leading', 'trailing '] : []), 'tab\tinside', 'émoji-🔑']) {
      const created = validateIntegrationCreate(registry, { ...body, [name]: value });
      expect(created).toEqual({ ok: false, errors: [{ field: name, message: expect.any(String) }] });
      expect(validateIntegrationUpdate(registry, code, { [name]: value })).toEqual(created);
      if (!created.ok) expect(created.errors[0].message).not.toContain(value.trim());
    }
  });

  it('PLATFORM_D apiKey: says why, naming the header', () => {
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, apiKey: 'anahtar-şifre-ğüç' })).toEqual({
      ok: false,
      errors: [{ field: 'apiKey', message: expect.stringMatching(/^must be visible ASCII characters .*XApiKey HTTP header/) }],
    });
  });

  it('PLATFORM_D apiKey: visible ASCII, spaces inside included, is accepted unchanged', () => {
    const keys = ['migros-key-good', 'A1b2~!@#$%^&*()_+={}[]|\\:;"\'<>,.?/`', 'key with spaces inside', '!', '~'];
    for (const apiKey of keys) {
      expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_D, apiKey })).toMatchObject({ ok: true, input: { secrets: { apiKey } } });
      expect(validateIntegrationUpdate(registry, 'PLATFORM_D', { apiKey })).toMatchObject({ ok: true, input: { secrets: { apiKey } } });
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,40}[\x21-\x7e]$/), (apiKey) => {
        const result = validateIntegrationUpdate(registry, 'PLATFORM_D', { apiKey });
        return result.ok && result.input.secrets.apiKey === apiKey;
      }),
    );
  });

  it('fields the adapters encode first take any character: PLATFORM_C apiKey/secretKey (Basic is base64 of UTF-8), PLATFORM_A secretKey (JSON), PLATFORM_B username/password (form)', () => {
    const value = 'anahtar-şifre-ğüç';
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_C, apiKey: value, secretKey: value })).toMatchObject({ ok: true, input: { secrets: { apiKey: value, secretKey: value } } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_A, secretKey: value })).toMatchObject({ ok: true, input: { secrets: { secretKey: value } } });
    expect(validateIntegrationCreate(registry, { ...bodies.PLATFORM_B, username: value, password: value })).toMatchObject({ ok: true, input: { settings: { username: value }, secrets: { password: value } } });
  });
});

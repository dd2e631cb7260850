import { ConfigurationError } from '@courier/config';
import { holdsPlatformRestaurant } from './platform-definition';
import { PLATFORM_DEFINITIONS } from '../platforms';
import { PlatformRegistry } from './platform-registry';

describe('PlatformRegistry', () => {
  it('registers the four platforms and THIRD_PARTY under their neutral codes by default', () => {
    const registry = PlatformRegistry.fromEnv({});
    expect(registry.list().map((platform) => [platform.code, platform.wireCode])).toEqual([
      ['PLATFORM_A', 'PLATFORM_A'],
      ['PLATFORM_B', 'PLATFORM_B'],
      ['PLATFORM_C', 'PLATFORM_C'],
      ['PLATFORM_D', 'PLATFORM_D'],
      ['THIRD_PARTY', 'THIRD_PARTY'],
    ]);
  });

  it('has the field sets of interface.md, with the secret fields marked', () => {
    const registry = PlatformRegistry.fromEnv({});
    const fields = (code: string) => registry.byCode(code)!.fields.map((field) => field.name);
    expect(fields('PLATFORM_A')).toEqual(['secretKey']);
    expect(fields('PLATFORM_B')).toEqual(['chainCode', 'username', 'password']);
    expect(fields('PLATFORM_C')).toEqual(['supplierId', 'apiKey', 'secretKey', 'storeId']);
    expect(fields('PLATFORM_D')).toEqual(['providerMerchantId', 'apiKey', 'encryptionMode']);
    expect(fields('THIRD_PARTY')).toEqual([]);
    expect(registry.secretFieldNames('PLATFORM_A')).toEqual(['secretKey']);
    expect(registry.secretFieldNames('PLATFORM_B')).toEqual(['password']);
    expect(registry.secretFieldNames('PLATFORM_C')).toEqual(['apiKey', 'secretKey']);
    expect(registry.secretFieldNames('PLATFORM_D')).toEqual(['apiKey']);
    expect(registry.credentialFieldNames().sort()).toEqual(
      ['apiKey', 'chainCode', 'encryptionMode', 'password', 'providerMerchantId', 'secretKey', 'storeId', 'supplierId', 'username'].sort(),
    );
  });

  it('renames platforms on the wire from PLATFORM_X_CODE', () => {
    const registry = PlatformRegistry.fromEnv({ PLATFORM_A_CODE: 'GETIR', PLATFORM_C_CODE: ' TRENDYOL ' });
    expect(registry.byWireCode('GETIR')?.code).toBe('PLATFORM_A');
    expect(registry.byWireCode('PLATFORM_A')).toBeUndefined();
    expect(registry.wireCodeOf('PLATFORM_C')).toBe('TRENDYOL');
    expect(registry.wireCodeOf('GONE')).toBe('GONE');
    expect(registry.platformsWithField('secretKey')).toEqual(['GETIR', 'TRENDYOL']);
  });

  it('fails naming the variable for a malformed or duplicate wire code', () => {
    expect(() => PlatformRegistry.fromEnv({ PLATFORM_B_CODE: 'lower case' })).toThrow(ConfigurationError);
    expect(() => PlatformRegistry.fromEnv({ PLATFORM_B_CODE: 'lower case' })).toThrow(/PLATFORM_B_CODE must be upper-case/);
    expect(() => PlatformRegistry.fromEnv({ PLATFORM_B_CODE: 'PLATFORM_A' })).toThrow(/PLATFORM_B_CODE: wire code PLATFORM_A is already used by PLATFORM_A/);
    expect(() => PlatformRegistry.fromEnv({ PLATFORM_D_CODE: 'THIRD_PARTY' })).toThrow(/already used/);
  });

  it('takes a new platform as one more definition', () => {
    const registry = PlatformRegistry.fromEnv({ PLATFORM_E_CODE: 'NEWCO' }, [
      ...PLATFORM_DEFINITIONS,
      { code: 'PLATFORM_E', title: 'E', wireCodeVariable: 'PLATFORM_E_CODE', fields: [{ name: 'clientId', secret: false, description: 'x' }] },
    ]);
    expect(registry.byWireCode('NEWCO')?.fields.map((field) => field.name)).toEqual(['clientId']);
    expect(() => new PlatformRegistry([...registry.list(), registry.list()[0]])).toThrow(/registered twice/);
  });

  it('makes every platform but THIRD_PARTY, a new one included, hold its platform restaurant across accounts', () => {
    const registry = PlatformRegistry.fromEnv({}, [...PLATFORM_DEFINITIONS, { code: 'PLATFORM_E', title: 'E', fields: [] }]);
    expect(registry.list().filter((platform) => !holdsPlatformRestaurant(platform)).map((platform) => platform.code)).toEqual(['THIRD_PARTY']);
  });
});

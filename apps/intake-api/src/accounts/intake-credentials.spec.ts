import { parseIntakeCredentials } from './intake-credentials';

const basic = (text: string) => ({ authorization: `Basic ${Buffer.from(text).toString('base64')}` });

describe('parseIntakeCredentials', () => {
  it('takes X-API-Key, which wins over Authorization', () => {
    expect(parseIntakeCredentials({ 'x-api-key': 'key-1' })).toEqual({ apiKey: 'key-1' });
    expect(parseIntakeCredentials({ 'x-api-key': 'key-1', ...basic('key-2:secret') })).toEqual({ apiKey: 'key-1' });
    expect(parseIntakeCredentials({ 'x-api-key': '', ...basic('key-2:secret') })).toEqual({ apiKey: 'key-2', apiSecret: 'secret' });
  });

  it('reads Basic base64(key:secret), with an empty or missing secret part', () => {
    expect(parseIntakeCredentials(basic('key-1:secret-1'))).toEqual({ apiKey: 'key-1', apiSecret: 'secret-1' });
    expect(parseIntakeCredentials(basic('key-1:'))).toEqual({ apiKey: 'key-1' });
    expect(parseIntakeCredentials(basic('key-1'))).toEqual({ apiKey: 'key-1' });
    expect(parseIntakeCredentials(basic('key-1:se:cret'))).toEqual({ apiKey: 'key-1', apiSecret: 'se:cret' });
    expect(parseIntakeCredentials({ authorization: `basic   ${Buffer.from('k:s').toString('base64')}` })).toEqual({ apiKey: 'k', apiSecret: 's' });
  });

  it('refuses anything else', () => {
    expect(parseIntakeCredentials({})).toBeUndefined();
    expect(parseIntakeCredentials({ 'x-api-key': '' })).toBeUndefined();
    expect(parseIntakeCredentials({ 'x-api-key': 'k'.repeat(513) })).toBeUndefined();
    expect(parseIntakeCredentials({ 'x-api-key': ['a', 'b'] as unknown as string })).toBeUndefined();
    expect(parseIntakeCredentials({ authorization: 'Bearer abc' })).toBeUndefined();
    expect(parseIntakeCredentials({ authorization: 'Basic' })).toBeUndefined();
    expect(parseIntakeCredentials({ authorization: 'Basic !!!' })).toBeUndefined();
    expect(parseIntakeCredentials(basic(':secret'))).toBeUndefined();
    expect(parseIntakeCredentials(basic(`key:${'s'.repeat(513)}`))).toBeUndefined();
  });
});

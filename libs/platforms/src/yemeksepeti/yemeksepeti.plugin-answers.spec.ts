import { PLATFORM_B_PLUGIN_STATUSES, platformBPluginRefusal, platformBVendorRefusal } from './yemeksepeti.plugin-answers';

describe('platformBPluginRefusal (what the DH middleware gets for each refusal of the plugin)', () => {
  it.each([
    [400, 400, 'MENU_ACCOUNT_SETTINGS'],
    [401, 401, 'UNAUTHORIZED'],
    [403, 400, 'MENU_ACCOUNT_SETTINGS'],
    [404, 400, 'MENU_ACCOUNT_SETTINGS'],
    [405, 400, 'MENU_ACCOUNT_SETTINGS'],
    [409, 400, 'MENU_ACCOUNT_SETTINGS'],
    [413, 400, 'MENU_ACCOUNT_SETTINGS'],
    [415, 400, 'MENU_ACCOUNT_SETTINGS'],
    [422, 400, 'MENU_ACCOUNT_SETTINGS'],
    [429, 429, 'TECHNICAL_PROBLEM'],
    [500, 500, 'TECHNICAL_PROBLEM'],
    [502, 502, 'TECHNICAL_PROBLEM'],
    [503, 500, 'TECHNICAL_PROBLEM'],
    [504, 500, 'TECHNICAL_PROBLEM'],
  ])('%i is answered %i with reason %s', (status, mapped, reason) => {
    expect(platformBPluginRefusal(status)).toEqual({ status: mapped, reason });
  });

  it('keeps a reason the handler chose, and never leaves the middleware\'s set (retried: 429 and 5xx only where ours was 429 or 5xx)', () => {
    expect(platformBPluginRefusal(403, 'CLOSED')).toEqual({ status: 400, reason: 'CLOSED' });
    for (let status = 400; status < 600; status += 1) {
      const { status: mapped } = platformBPluginRefusal(status);
      expect((PLATFORM_B_PLUGIN_STATUSES as readonly number[]).includes(mapped)).toBe(true);
      expect({ status, retried: mapped === 429 || mapped >= 500 }).toEqual({ status, retried: status === 429 || status >= 500 });
    }
  });

  it('a vendor that may appear soon is retried (500); one that never will, or a paused one, is not (400)', () => {
    expect(platformBVendorRefusal('unknown')).toEqual({ status: 500, reason: 'TECHNICAL_PROBLEM' });
    expect(platformBVendorRefusal('gone')).toEqual({ status: 400, reason: 'MENU_ACCOUNT_SETTINGS' });
    expect(platformBVendorRefusal('paused')).toEqual({ status: 400, reason: 'CLOSED' });
  });
});

import { PlatformBAvailabilityRoutes } from '../../simulators/platform-b/platform-b.availability-routes';
import { parsePlatformBAvailabilityUpdate } from './platform-b.availability-update';

describe('parsePlatformBAvailabilityUpdate (DH PUT /remoteId/{remoteId}/availability)', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');
  const iso = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

  it('reads no closures (or an empty list) as OPEN', () => {
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0) }, now)).toMatchObject({ ok: true, state: 'OPEN', changeable: true, closures: [] });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [] }, now)).toMatchObject({ ok: true, state: 'OPEN' });
  });

  it('reads a started closure as CLOSED until its end, not changeable when DH says so; a future or ended one leaves it OPEN', () => {
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ reason: 'TOO_MANY_REJECTED_ORDERS', start: iso(-5), end: iso(25), changeable: false }] }, now)).toEqual({
      ok: true,
      timestamp: now,
      state: 'CLOSED',
      until: new Date(iso(25)),
      reason: 'TOO_MANY_REJECTED_ORDERS',
      changeable: false,
      closures: [{ reason: 'TOO_MANY_REJECTED_ORDERS', start: new Date(iso(-5)), end: new Date(iso(25)), changeable: false }],
    });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ reason: 'CLOSED', start: iso(-5), end: null, changeable: true }] }, now)).toMatchObject({ state: 'CLOSED', changeable: true });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ reason: 'CLOSED', start: iso(-5), end: null, changeable: true }] }, now)).not.toHaveProperty('until');
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ reason: 'HOLIDAY_SPECIAL_DAY', start: iso(60), end: iso(120), changeable: true }] }, now)).toMatchObject({ state: 'OPEN' });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ reason: 'CLOSED', start: iso(-60), end: iso(-1), changeable: true }] }, now)).toMatchObject({ state: 'OPEN' });
  });

  it('refuses a body without a timestamp or with malformed closures, naming the fields', () => {
    expect(parsePlatformBAvailabilityUpdate(null, now)).toEqual({ ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] });
    expect(parsePlatformBAvailabilityUpdate({ closures: [] }, now)).toEqual({ ok: false, errors: [{ field: 'timestamp', message: 'must be an ISO 8601 date-time' }] });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: 'closed' }, now)).toMatchObject({ ok: false, errors: [{ field: 'closures' }] });
    expect(parsePlatformBAvailabilityUpdate({ timestamp: iso(0), closures: [{ start: 'yesterday', end: 'soon' }] }, now)).toEqual({
      ok: false,
      errors: [
        { field: 'closures[0].reason', message: 'must be a non-empty string' },
        { field: 'closures[0].start', message: 'must be an ISO 8601 date-time' },
        { field: 'closures[0].end', message: 'must be an ISO 8601 date-time or null' },
      ],
    });
  });

  it('reads what the simulator sends when DH closes a vendor itself', async () => {
    let sent: unknown;
    const routes = new PlatformBAvailabilityRoutes({
      tellPlugin: async (_remoteId, body) => {
        sent = body;
        return undefined;
      },
    });
    await routes.closeByPlatform('v-1', { reason: 'TOO_MANY_REJECTED_ORDERS', minutes: 30 });
    expect(parsePlatformBAvailabilityUpdate(sent, new Date())).toMatchObject({ ok: true, state: 'CLOSED', reason: 'TOO_MANY_REJECTED_ORDERS', changeable: false, until: expect.any(Date) });
  });
});

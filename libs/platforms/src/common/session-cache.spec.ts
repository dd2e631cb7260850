import type { IntegrationCredentials } from './platform-adapter';
import { credentialFingerprint, SessionCache } from './session-cache';
import { MemorySessionStore } from './session-store';

const credentials: IntegrationCredentials = { integrationId: 'int-1', providerRestaurantId: 'r', settings: { username: 'u' }, secrets: { password: 'p' } };

describe('SessionCache', () => {
  let now: number;
  let cache: SessionCache;
  let issued: number;
  const login = jest.fn(async () => ({ token: `t${++issued}`, expiresAt: now + 3_600_000 }));

  beforeEach(() => {
    now = 1_000_000;
    issued = 0;
    login.mockClear();
    cache = new SessionCache(300_000, () => now);
  });

  it('reuses a token until the refresh margin before its expiry, then logs in again', async () => {
    expect((await cache.session(credentials, login)).token).toBe('t1');
    now += 3_600_000 - 300_001;
    expect((await cache.session(credentials, login)).token).toBe('t1');
    now += 2;
    expect((await cache.session(credentials, login)).token).toBe('t2');
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('runs one login for concurrent callers', async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => cache.session(credentials, login)));
    expect(new Set(tokens.map((session) => session.token))).toEqual(new Set(['t1']));
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('starts a new session when the credentials change', async () => {
    await cache.session(credentials, login);
    expect((await cache.session({ ...credentials, secrets: { password: 'new' } }, login)).token).toBe('t2');
  });

  it('does not keep a failed login, and drops only the refused token', async () => {
    const failing = jest.fn(async () => Promise.reject(new Error('down')));
    await expect(cache.session(credentials, failing)).rejects.toThrow('down');
    expect((await cache.session(credentials, login)).token).toBe('t1');
    await cache.invalidate('int-1', 'some-older-token');
    expect((await cache.session(credentials, login)).token).toBe('t1');
    await cache.invalidate('int-1', 't1');
    expect((await cache.session(credentials, login)).token).toBe('t2');
  });

  it('withSession repeats a call refused with 401 once, with a new token', async () => {
    const seen: string[] = [];
    const response = await cache.withSession(credentials, login, async (token) => {
      seen.push(token);
      return { status: token === 't1' ? 401 : 200, headers: {}, body: null };
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['t1', 't2']);
    const twice = await cache.withSession(credentials, login, async () => ({ status: 401, headers: {}, body: null }));
    expect(twice.status).toBe(401);
  });

  it('two calls refused at once: a look-up started while the refused token is being dropped never brings it back', async () => {
    // The store's drop is a database round trip: hold it to let another caller look up meanwhile.
    class SlowDropStore extends MemorySessionStore {
      release: () => void = () => undefined;
      override async drop(key: Parameters<MemorySessionStore['drop']>[0], token: string): Promise<void> {
        await new Promise<void>((resolve) => (this.release = resolve));
        await super.drop(key, token);
      }
    }
    const store = new SlowDropStore();
    cache = new SessionCache(300_000, () => now, store);
    expect((await cache.session(credentials, login)).token).toBe('t1');
    // The first call's 401: its token is being dropped ...
    const dropping = cache.invalidate('int-1', 't1');
    // ... while the second call (refused too) looks up the session.
    const meanwhile = cache.session(credentials, login);
    await Promise.resolve();
    store.release();
    await dropping;
    expect((await meanwhile).token).toBe('t2');
    expect((await cache.session(credentials, login)).token).toBe('t2');
    expect(login).toHaveBeenCalledTimes(2);
  });

  describe('over a store shared by two processes', () => {
    let store: MemorySessionStore;
    let other: SessionCache;

    beforeEach(() => {
      store = new MemorySessionStore();
      cache = new SessionCache(300_000, () => now, store);
      other = new SessionCache(300_000, () => now, store);
    });

    it('logs in once for both, and again for both once the token is inside the refresh margin', async () => {
      const [mine, theirs] = await Promise.all([cache.session(credentials, login), other.session(credentials, login)]);
      expect([mine.token, theirs.token]).toEqual(['t1', 't1']);
      expect(login).toHaveBeenCalledTimes(1);
      now += 3_600_000 - 300_000;
      expect((await other.session(credentials, login)).token).toBe('t2');
      expect((await cache.session(credentials, login)).token).toBe('t2');
      expect(cache.logins + other.logins).toBe(2);
    });

    it('a 401 drops the shared token only while it is the stored one (compare-and-delete)', async () => {
      await cache.session(credentials, login);
      await other.session(credentials, login);
      // The first process is refused t1: it drops it and logs in (t2); the second, refused t1 later, finds t2 stored.
      const refusedOnce = async (token: string) => ({ status: token === 't1' ? 401 : 200, headers: {}, body: null });
      expect((await cache.withSession(credentials, login, refusedOnce)).status).toBe(200);
      expect((await other.withSession(credentials, login, refusedOnce)).status).toBe(200);
      expect(login).toHaveBeenCalledTimes(2);
      expect((await store.read({ integrationId: 'int-1', fingerprint: credentialFingerprint(credentials) }))?.token).toBe('t2');
    });
  });
});

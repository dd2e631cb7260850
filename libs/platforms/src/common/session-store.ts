/** A platform session: the token to send and when the platform stops accepting it. */
export interface PlatformSession {
  token: string;
  expiresAt: number;
}

/** Whose session: an integration with one set of credentials (a changed password is another key). */
export interface SessionKey {
  integrationId: string;
  /** A digest of the credentials (never the credentials themselves). */
  fingerprint: string;
}

/**
 * Where sessions live, shared by every user of the store (SessionCache keeps a per-process layer on
 * top). In memory for one process (integrations-api's check, unit tests); in PostgreSQL for the
 * replicas of status-dispatcher, so that N replicas log in once.
 */
export interface SessionStore {
  /** The stored session, if one is stored (expired or not). */
  read(key: SessionKey): Promise<PlatformSession | undefined>;
  /**
   * A session valid after `usableAfter`: the stored one if it is, else the one another user is logging
   * in for (waited for), else the result of `login`, run by one user of the store at a time and stored.
   */
  loginOnce(key: SessionKey, usableAfter: number, login: () => Promise<PlatformSession>): Promise<PlatformSession>;
  /** Compare-and-delete: forgets the stored session only if it still holds `token` (the platform refused it). */
  drop(key: SessionKey, token: string): Promise<void>;
}

/** Sessions of one process: a login in progress is shared by every caller of the same key. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, PlatformSession>();
  private readonly pending = new Map<string, Promise<PlatformSession>>();

  async read(key: SessionKey): Promise<PlatformSession | undefined> {
    return this.sessions.get(id(key));
  }

  loginOnce(key: SessionKey, usableAfter: number, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    const stored = this.sessions.get(id(key));
    if (stored && stored.expiresAt > usableAfter) return Promise.resolve(stored);
    const running = this.pending.get(id(key));
    if (running) return running;
    const started = login()
      .then((session) => {
        this.sessions.set(id(key), session);
        return session;
      })
      .finally(() => this.pending.delete(id(key)));
    this.pending.set(id(key), started);
    return started;
  }

  async drop(key: SessionKey, token: string): Promise<void> {
    if (this.sessions.get(id(key))?.token === token) this.sessions.delete(id(key));
  }
}

const id = (key: SessionKey) => `${key.integrationId}\u0000${key.fingerprint}`;

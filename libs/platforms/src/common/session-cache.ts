import { createHash } from 'node:crypto';
import type { IntegrationCredentials } from './platform-adapter';
import { PlatformResponse } from './platform-http';
import { MemorySessionStore, PlatformSession, SessionKey, SessionStore } from './session-store';

export type { PlatformSession } from './session-store';

interface Entry {
  fingerprint: string;
  session?: PlatformSession;
  /** The look-up or login in progress: concurrent callers of this process wait for the same one. */
  pending?: Promise<PlatformSession>;
  /** Counts the refusals (invalidate): a look-up begun before the last one is neither shared nor kept. */
  generation: number;
  pendingGeneration?: number;
  /** The refused token's drop from the store, under way: a look-up waits for it, or it would read that token back. */
  dropping?: Promise<void>;
}

/**
 * Session tokens per integration. A token is reused until `refreshMarginMs` before it expires; then
 * (or after a 401) one login runs and every caller waiting meanwhile shares it. The entry is keyed by
 * a hash of the credentials too, so a changed password or key starts a new session at once.
 * The tokens live in a `SessionStore` (in memory by default; status-dispatcher's is shared by its
 * replicas, so N replicas log in once) with a copy in this process, so a call costs no look-up.
 * Tokens are never logged.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Logins this process performed, for tests and metrics. */
  logins = 0;

  constructor(
    private readonly refreshMarginMs: number,
    private readonly now: () => number = Date.now,
    readonly store: SessionStore = new MemorySessionStore(),
  ) {}

  async session(credentials: IntegrationCredentials, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    const fingerprint = credentialFingerprint(credentials);
    let entry = this.entries.get(credentials.integrationId);
    if (!entry || entry.fingerprint !== fingerprint) {
      entry = { fingerprint, generation: 0 };
      this.entries.set(credentials.integrationId, entry);
    }
    if (entry.session && entry.session.expiresAt - this.refreshMarginMs > this.now()) return entry.session;
    if (entry.pending && entry.pendingGeneration === entry.generation) return entry.pending;
    const current = entry;
    const generation = entry.generation;
    const pending = (current.dropping ?? Promise.resolve())
      .then(() => this.fromStore({ integrationId: credentials.integrationId, fingerprint }, login))
      .then((session) => {
        if (current.generation === generation) current.session = session;
        return session;
      })
      .finally(() => {
        if (current.pending === pending) current.pending = undefined;
      });
    current.pending = pending;
    current.pendingGeneration = generation;
    return pending;
  }

  /** Drops the token after the platform refused it (only that token: a newer one may be in place, here or in the store). */
  async invalidate(integrationId: string, token: string): Promise<void> {
    const entry = this.entries.get(integrationId);
    if (!entry) return;
    entry.generation += 1;
    if (entry.session?.token === token) entry.session = undefined;
    const dropping = this.store.drop({ integrationId, fingerprint: entry.fingerprint }, token);
    const settled = dropping.catch(() => undefined);
    entry.dropping = settled;
    try {
      await dropping;
    } finally {
      if (entry.dropping === settled) entry.dropping = undefined;
    }
  }

  /**
   * Runs `call` with the integration's token; a 401 drops the token, logs in again and runs the
   * call once more (the platform may have revoked or expired it before we expected).
   */
  async withSession(credentials: IntegrationCredentials, login: () => Promise<PlatformSession>, call: (token: string) => Promise<PlatformResponse>): Promise<PlatformResponse> {
    const first = await this.session(credentials, login);
    const response = await call(first.token);
    if (response.status !== 401) return response;
    await this.invalidate(credentials.integrationId, first.token);
    const second = await this.session(credentials, login);
    return call(second.token);
  }

  /** The stored session when another user of the store has a usable one, else one login across the store's users. */
  private async fromStore(key: SessionKey, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    const usableAfter = this.now() + this.refreshMarginMs;
    const stored = await this.store.read(key);
    if (stored && stored.expiresAt > usableAfter) return stored;
    return this.store.loginOnce(key, usableAfter, () => {
      this.logins += 1;
      return login();
    });
  }
}

/** A digest of everything that identifies the credentials (a changed password gives another one). */
export function credentialFingerprint(credentials: IntegrationCredentials): string {
  const material = JSON.stringify([credentials.providerRestaurantId, sorted(credentials.settings), sorted(credentials.secrets)]);
  return createHash('sha256').update(material).digest('hex');
}

function sorted(record: Record<string, string>): Array<[string, string]> {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
}

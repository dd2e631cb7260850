import { createHash } from 'node:crypto';
import type { IntegrationCredentials } from '../platform-adapter';
import { PlatformResponse } from './platform-http';

/** A platform session: the token to send and when the platform stops accepting it. */
export interface PlatformSession {
  token: string;
  expiresAt: number;
}

interface Entry {
  fingerprint: string;
  session?: PlatformSession;
  /** The login in progress: concurrent callers wait for the same one. */
  pending?: Promise<PlatformSession>;
}

/**
 * Session tokens per integration, in memory. A token is reused until `refreshMarginMs` before it
 * expires; then (or after a 401) one login runs and every caller waiting meanwhile shares it. The
 * entry is keyed by a hash of the credentials too, so a changed password or key starts a new session
 * at once. Tokens are never written anywhere else.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Logins performed, for tests and metrics. */
  logins = 0;

  constructor(
    private readonly refreshMarginMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async session(credentials: IntegrationCredentials, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    const fingerprint = fingerprintOf(credentials);
    let entry = this.entries.get(credentials.integrationId);
    if (!entry || entry.fingerprint !== fingerprint) {
      entry = { fingerprint };
      this.entries.set(credentials.integrationId, entry);
    }
    if (entry.session && entry.session.expiresAt - this.refreshMarginMs > this.now()) return entry.session;
    if (entry.pending) return entry.pending;
    const current = entry;
    this.logins += 1;
    const pending = login()
      .then((session) => {
        current.session = session;
        return session;
      })
      .finally(() => {
        if (current.pending === pending) current.pending = undefined;
      });
    current.pending = pending;
    return pending;
  }

  /** Drops the token after the platform refused it (only that token: a newer one may be in place). */
  invalidate(integrationId: string, token: string): void {
    const entry = this.entries.get(integrationId);
    if (entry?.session?.token === token) entry.session = undefined;
  }

  /**
   * Runs `call` with the integration's token; a 401 drops the token, logs in again and runs the
   * call once more (the platform may have revoked or expired it before we expected).
   */
  async withSession(credentials: IntegrationCredentials, login: () => Promise<PlatformSession>, call: (token: string) => Promise<PlatformResponse>): Promise<PlatformResponse> {
    const first = await this.session(credentials, login);
    const response = await call(first.token);
    if (response.status !== 401) return response;
    this.invalidate(credentials.integrationId, first.token);
    const second = await this.session(credentials, login);
    return call(second.token);
  }
}

function fingerprintOf(credentials: IntegrationCredentials): string {
  const material = JSON.stringify([credentials.providerRestaurantId, sorted(credentials.settings), sorted(credentials.secrets)]);
  return createHash('sha256').update(material).digest('hex');
}

function sorted(record: Record<string, string>): Array<[string, string]> {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
}

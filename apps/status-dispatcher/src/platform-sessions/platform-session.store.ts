import { Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { SecretBox, secretBinding, SecretDecryptionError } from '@courier/crypto';
import type { PlatformSession, SessionKey, SessionStore } from '@courier/platforms';
import type { CredentialFingerprints } from './credential-fingerprints';
import type { PlatformSessionRepository } from './platform-session.repository';

export interface PostgresSessionStoreOptions {
  /** How long a login may take before another replica may take it over (a replica may die mid-login). */
  loginLeaseMs: number;
  /** Pause between looks at the row while another replica logs in (doubles up to 10 times this). */
  waitPollMs?: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Platform sessions shared by status-dispatcher's replicas (PlatformSessionRepository): the token
 * sealed with SecretBox and its digest (for compare-and-delete: a token is random, its digest reveals
 * nothing), and a login lease, so one replica logs in while the others wait for the stored token.
 * Tokens are never logged.
 */
export class PostgresSessionStore implements SessionStore {
  private readonly logger = new Logger('PlatformSessions');

  constructor(
    private readonly sessions: PlatformSessionRepository,
    private readonly secretBox: SecretBox,
    private readonly fingerprints: CredentialFingerprints,
    private readonly options: PostgresSessionStoreOptions,
  ) {}

  async read(key: SessionKey): Promise<PlatformSession | undefined> {
    const row = await this.sessions.read(key.integrationId, this.fingerprints.keyed(key.fingerprint));
    if (!row) return undefined;
    try {
      return { token: this.secretBox.decrypt(row.token, secretBinding.platformSession(key.integrationId)), expiresAt: row.expiresAt.getTime() };
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      // Sealed under a key no longer in the ring: as if absent (one new login replaces it).
      this.logger.warn({ integrationId: key.integrationId, keyId: error.keyId }, 'stored platform session cannot be opened; logging in again');
      return undefined;
    }
  }

  async loginOnce(key: SessionKey, usableAfter: number, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    const fingerprint = this.fingerprints.keyed(key.fingerprint);
    const pollMs = this.options.waitPollMs ?? 25;
    for (let wait = pollMs; ; wait = Math.min(wait * 2, pollMs * 10)) {
      const lease = await this.takeLoginLease(key.integrationId, fingerprint, usableAfter);
      if (lease) return this.logIn(key.integrationId, fingerprint, lease, login);
      // Another replica logs in (or has just stored a usable token): use what it stores.
      const stored = await this.read(key);
      if (stored && stored.expiresAt > usableAfter) return stored;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  async drop(key: SessionKey, token: string): Promise<void> {
    await this.sessions.dropToken(key.integrationId, this.fingerprints.keyed(key.fingerprint), digest(token));
  }

  /** The login lease, taken only if no usable token is stored and no other lease runs (one statement). */
  private async takeLoginLease(integrationId: string, fingerprint: string, usableAfter: number): Promise<string | undefined> {
    const lease = randomUUID();
    return (await this.sessions.takeLoginLease(integrationId, fingerprint, lease, this.options.loginLeaseMs, new Date(usableAfter))) ? lease : undefined;
  }

  /** Logs in under the lease and stores the sealed token; a failed login ends the lease at once (the next caller tries). */
  private async logIn(integrationId: string, fingerprint: string, lease: string, login: () => Promise<PlatformSession>): Promise<PlatformSession> {
    let session: PlatformSession;
    try {
      session = await login();
    } catch (error) {
      await this.sessions
        .endLoginLease(integrationId, fingerprint, lease)
        .catch((releaseError: unknown) => this.logger.warn({ err: releaseError, integrationId }, 'could not end the login lease; it runs out by itself'));
      throw error;
    }
    // Stored even if the lease ran out meanwhile: the token is valid, and the newest login wins.
    await this.sessions.storeToken(integrationId, fingerprint, lease, this.secretBox.encrypt(session.token, secretBinding.platformSession(integrationId)), digest(session.token), new Date(session.expiresAt));
    return session;
  }
}

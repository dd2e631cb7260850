import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** A stored platform session: the token as sealed (SecretBox) and when it expires. */
export interface SealedSession {
  token: string;
  expiresAt: Date;
}

/**
 * `platform_sessions`: one row per integration and keyed credential fingerprint, with the sealed
 * token, its digest (for compare-and-delete) and the login lease that lets one replica log in while
 * the others wait.
 */
@Injectable()
export class PlatformSessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: Pick<DataSource, 'query'>) {}

  async read(integrationId: string, fingerprint: string): Promise<SealedSession | undefined> {
    const [row]: SealedSession[] = await this.dataSource.query(
      `SELECT token, expires_at AS "expiresAt" FROM platform_sessions WHERE integration_id = $1 AND fingerprint = $2 AND token IS NOT NULL`,
      [integrationId, fingerprint],
    );
    return row;
  }

  /** Forgets the token if it is still the one of `tokenDigest` (a newer login's token stays). */
  async dropToken(integrationId: string, fingerprint: string, tokenDigest: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_sessions SET token = NULL, token_digest = NULL, expires_at = NULL, updated_at = now()
        WHERE integration_id = $1 AND fingerprint = $2 AND token_digest = $3`,
      [integrationId, fingerprint, tokenDigest],
    );
  }

  /**
   * Takes the login lease `lease` for `leaseMs`, only if no token usable after `usableAfter` is
   * stored and no other lease runs; false otherwise. One statement, so two replicas cannot both take it.
   */
  async takeLoginLease(integrationId: string, fingerprint: string, lease: string, leaseMs: number, usableAfter: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO platform_sessions (integration_id, fingerprint, login_lease, login_until)
       VALUES ($1, $2, $3, now() + ($4::bigint * interval '1 millisecond'))
       ON CONFLICT (integration_id, fingerprint) DO UPDATE SET login_lease = excluded.login_lease, login_until = excluded.login_until, updated_at = now()
        WHERE (platform_sessions.login_until IS NULL OR platform_sessions.login_until <= now())
          AND (platform_sessions.token IS NULL OR platform_sessions.expires_at <= $5)
       RETURNING 1`,
      [integrationId, fingerprint, lease, leaseMs, usableAfter],
    );
    return rows.length > 0;
  }

  /** Ends the lease `lease` if it still runs (a failed login: the next caller tries). */
  async endLoginLease(integrationId: string, fingerprint: string, lease: string): Promise<void> {
    await this.dataSource.query(`UPDATE platform_sessions SET login_lease = NULL, login_until = NULL WHERE integration_id = $1 AND fingerprint = $2 AND login_lease = $3`, [
      integrationId,
      fingerprint,
      lease,
    ]);
  }

  /** Stores a login's sealed token (even if the lease ran out meanwhile: the newest login wins) and ends the lease if it is still `lease`. */
  async storeToken(integrationId: string, fingerprint: string, lease: string, sealedToken: string, tokenDigest: string, expiresAt: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_sessions SET token = $4, token_digest = $5, expires_at = $6,
              login_lease = CASE WHEN login_lease = $3 THEN NULL ELSE login_lease END,
              login_until = CASE WHEN login_lease = $3 THEN NULL ELSE login_until END, updated_at = now()
        WHERE integration_id = $1 AND fingerprint = $2`,
      [integrationId, fingerprint, lease, sealedToken, tokenDigest, expiresAt],
    );
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Registry } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { ErrorCode } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import type { IntegrationCredentials } from '@courier/platforms';

type Queryable = Pick<EntityManager, 'query'>;

/** An integration of the account read model (table `integrations`), secrets still encrypted. */
export interface DirectoryIntegration {
  integrationId: string;
  restaurantId: string;
  platform: string;
  providerRestaurantId: string;
  isActive: boolean;
  deleted: boolean;
  /** The account is not disabled (an unknown account counts as active: the read model may lag). */
  accountActive: boolean;
  settings: Record<string, string>;
  /** SecretBox ciphertexts by field name. */
  secrets: Record<string, string>;
}

const COLUMNS = `i.integration_id AS "integrationId", i.restaurant_id AS "restaurantId", i.platform, i.provider_restaurant_id AS "providerRestaurantId",
  i.is_active AS "isActive", (i.deleted_at IS NOT NULL) AS deleted, coalesce(a.status <> 'disabled', true) AS "accountActive", i.settings, i.secrets`;

/** What a refused ambiguous request tells the platform: the read model settles within seconds. */
const AMBIGUOUS_RETRY_AFTER_SECONDS = 30;

/**
 * The integrations the platform adapters work for, from the read model account-directory/ keeps.
 * Secrets are decrypted only to make a platform call, and only into memory.
 */
@Injectable()
export class IntegrationDirectory {
  private readonly logger = new Logger('IntegrationDirectory');
  private readonly ambiguous: Counter<'platform'>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    registry: Registry,
  ) {
    this.ambiguous = new Counter({
      name: 'platform_restaurant_ambiguous_total',
      help: 'Platform requests refused because several live integrations held their platform restaurant in the read model, by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
  }

  /**
   * The one live (not deleted, not displaced) integration holding a platform restaurant, active or
   * not. integrations-api lets one integration hold it, but the read model can briefly hold two
   * (a transfer's events out of order): then the request is refused with 503 and Retry-After (the
   * platform retries), logged and counted, rather than handed to a guessed account.
   */
  async forPlatformRestaurant(platform: string, providerRestaurantId: string): Promise<DirectoryIntegration | undefined> {
    const rows: DirectoryIntegration[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
        WHERE i.platform = $1 AND i.provider_restaurant_id = $2 AND i.deleted_at IS NULL AND NOT i.displaced
        ORDER BY i.integration_id LIMIT 2`,
      [platform, providerRestaurantId],
    );
    if (rows.length > 1) {
      this.ambiguous.inc({ platform });
      this.logger.error(
        { platform, providerRestaurantId, integrationIds: rows.map((row) => row.integrationId) },
        'several live integrations hold this platform restaurant: request refused until one does',
      );
      throw new ProblemException(
        503,
        ErrorCode.ServiceUnavailable,
        'The restaurant cannot be resolved to one integration right now; retry later.',
        undefined,
        {},
        { 'Retry-After': String(AMBIGUOUS_RETRY_AFTER_SECONDS) },
      );
    }
    return rows[0];
  }

  async byId(integrationId: string, db: Queryable = this.dataSource): Promise<DirectoryIntegration | undefined> {
    const [row]: DirectoryIntegration[] = await db.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id WHERE i.integration_id = $1`,
      [integrationId],
    );
    return row;
  }

  async activeIds(platform: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      'SELECT integration_id AS id FROM integrations WHERE platform = $1 AND is_active AND deleted_at IS NULL ORDER BY integration_id',
      [platform],
    );
    return rows.map((row) => row.id);
  }

  /** The credentials with secrets opened (each bound to its integration and field); throws SecretDecryptionError when a key is missing or a ciphertext was moved. */
  credentials(integration: Pick<DirectoryIntegration, 'integrationId' | 'providerRestaurantId' | 'settings' | 'secrets'>): IntegrationCredentials {
    return {
      integrationId: integration.integrationId,
      providerRestaurantId: integration.providerRestaurantId,
      settings: integration.settings ?? {},
      secrets: Object.fromEntries(Object.entries(integration.secrets ?? {}).map(([field, ciphertext]) => [field, this.secretBox.decrypt(ciphertext, secretBinding.integrationSecret(integration.integrationId, field))])),
    };
  }
}

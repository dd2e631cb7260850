import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

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

/** The dispatcher's read model of restaurant accounts and integrations (tables `restaurant_accounts`, `integrations`). */
@Injectable()
export class AccountDirectoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live (not deleted, not displaced) integrations holding a platform restaurant, at most `limit`, active or not. */
  liveHoldersOf(platform: string, providerRestaurantId: string, limit: number): Promise<DirectoryIntegration[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
        WHERE i.platform = $1 AND i.provider_restaurant_id = $2 AND i.deleted_at IS NULL AND NOT i.displaced
        ORDER BY i.integration_id LIMIT $3`,
      [platform, providerRestaurantId, limit],
    );
  }

  async integration(integrationId: string): Promise<DirectoryIntegration | undefined> {
    const [row]: DirectoryIntegration[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id WHERE i.integration_id = $1`,
      [integrationId],
    );
    return row;
  }

  /** Ids of the platform's active, not deleted integrations. */
  async activeIntegrationIds(platform: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      'SELECT integration_id AS id FROM integrations WHERE platform = $1 AND is_active AND deleted_at IS NULL ORDER BY integration_id',
      [platform],
    );
    return rows.map((row) => row.id);
  }
}

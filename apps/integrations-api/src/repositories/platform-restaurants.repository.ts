import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AccountStatus } from '@courier/contracts';
import { TransactionContext } from '@courier/messaging';
import type { PlatformRestaurantIntegration } from './platform-restaurants.model';

export type PlatformRestaurantAction = 'lookup' | 'verify' | 'transfer';

/** One operator action on a platform restaurant, as platform_restaurant_audit records it. */
export interface PlatformRestaurantAuditEntry {
  action: PlatformRestaurantAction;
  platform: string;
  providerRestaurantId: string;
  integrationId: string | null;
  previousIntegrationId?: string | null;
  operator: string | null;
  note?: string | null;
}

export interface PlatformRestaurantAuditRecord {
  action: string;
  integrationId: string | null;
  previousIntegrationId: string | null;
  operator: string | null;
  note: string | null;
  occurredAt: Date;
}

interface IntegrationRow {
  id: string;
  restaurant_id: string;
  name: string;
  status: AccountStatus;
  is_active: boolean;
  displaced_at: Date | null;
  verified_at: Date | null;
  verified_by: string | null;
  created_at: Date;
  updated_at: Date;
}

interface AuditRow {
  action: string;
  integration_id: string | null;
  previous_integration_id: string | null;
  operator: string | null;
  note: string | null;
  occurred_at: Date;
}

/** Who bears a platform restaurant (integrations joined with their accounts) and the operators' audit of it. */
@Injectable()
export class PlatformRestaurantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records an action, in `tx` when given (with the change it audits). */
  async record(entry: PlatformRestaurantAuditEntry, tx?: TransactionContext): Promise<void> {
    await this.manager(tx).query(
      `INSERT INTO platform_restaurant_audit (action, platform, provider_restaurant_id, integration_id, previous_integration_id, operator, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [entry.action, entry.platform, entry.providerRestaurantId, entry.integrationId, entry.previousIntegrationId ?? null, entry.operator, entry.note ?? null],
    );
  }

  /** Every integration bearing the platform restaurant (the holder and the displaced ones), oldest first. */
  async integrationsOf(platform: string, providerRestaurantId: string, tx?: TransactionContext): Promise<PlatformRestaurantIntegration[]> {
    const rows: IntegrationRow[] = await this.manager(tx).query(
      `SELECT i.id, i.restaurant_id, r.name, r.status, i.is_active, i.displaced_at, i.verified_at, i.verified_by, i.created_at, i.updated_at
         FROM integrations i JOIN restaurants r ON r.id = i.restaurant_id
        WHERE i.platform = $1 AND i.provider_restaurant_id = $2
        ORDER BY i.created_at, i.id`,
      [platform, providerRestaurantId],
    );
    return rows.map((row) => ({
      integrationId: row.id,
      restaurantId: row.restaurant_id,
      restaurantName: row.name,
      accountStatus: row.status,
      isActive: row.is_active,
      displacedAt: row.displaced_at,
      verifiedAt: row.verified_at,
      verifiedBy: row.verified_by,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  }

  /** The newest `limit` verifications and transfers of the platform restaurant (lookups are not history), newest first. */
  async history(platform: string, providerRestaurantId: string, limit: number, tx?: TransactionContext): Promise<PlatformRestaurantAuditRecord[]> {
    const rows: AuditRow[] = await this.manager(tx).query(
      `SELECT action, integration_id, previous_integration_id, operator, note, occurred_at FROM platform_restaurant_audit
        WHERE platform = $1 AND provider_restaurant_id = $2 AND action <> 'lookup'
        ORDER BY id DESC LIMIT $3`,
      [platform, providerRestaurantId, limit],
    );
    return rows.map((row) => ({
      action: row.action,
      integrationId: row.integration_id,
      previousIntegrationId: row.previous_integration_id,
      operator: row.operator,
      note: row.note,
      occurredAt: row.occurred_at,
    }));
  }

  private manager(tx?: TransactionContext): EntityManager {
    return tx?.manager ?? this.dataSource.manager;
  }
}

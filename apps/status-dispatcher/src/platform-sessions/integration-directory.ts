import { Injectable, Logger } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { ErrorCode } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import type { IntegrationCredentials } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';

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
    private readonly accounts: AccountDirectoryRepository,
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
    const rows = await this.accounts.liveHoldersOf(platform, providerRestaurantId, 2);
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

  /**
   * Whether a platform restaurant no live integration holds was held by one since deleted or
   * displaced (it will not come back by itself), rather than never known here (it may be being set
   * up, or the read model be behind).
   */
  formerlyHeld(platform: string, providerRestaurantId: string): Promise<boolean> {
    return this.accounts.formerlyHeld(platform, providerRestaurantId);
  }

  byId(integrationId: string): Promise<DirectoryIntegration | undefined> {
    return this.accounts.integration(integrationId);
  }

  activeIds(platform: string): Promise<string[]> {
    return this.accounts.activeIntegrationIds(platform);
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

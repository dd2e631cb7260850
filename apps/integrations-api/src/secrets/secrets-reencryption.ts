import { RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { UnitOfWork } from '@courier/messaging';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { integrationUpsertedEvent } from '../integrations/integration-events';
import { AccountsRepository } from '../repositories/accounts.repository';
import { IntegrationsRepository } from '../repositories/integrations.repository';

export interface ReencryptionFailure {
  kind: 'integration' | 'restaurant';
  id: string;
  /** Why the ciphertext could not be opened (e.g. its key is no longer in the keyring). */
  reason: string;
}

export interface ReencryptionReport {
  currentKeyId: string;
  integrations: number;
  signingSecrets: number;
  failures: ReencryptionFailure[];
}

/**
 * Re-encrypts every stored secret that is not under the current (first) key of
 * SECRETS_ENCRYPTION_KEYS or not yet bound to its row and field (legacy v1 ciphertexts become v2,
 * see secretBinding), in batches, each row in a transaction with its event: the consumers'
 * read models receive the new ciphertexts, after which the old key can leave the keyring.
 * Safe to run again and alongside the API (rows are locked; rows already current are skipped).
 */
export class SecretsReencryption {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly secretBox: SecretBox,
    private readonly batchSize = 100,
  ) {}

  async run(): Promise<ReencryptionReport> {
    const report: ReencryptionReport = { currentKeyId: this.secretBox.currentKeyId, integrations: 0, signingSecrets: 0, failures: [] };
    // Current: bound (v2) and under the current key; everything else is re-encrypted.
    const currentPrefix = `v2:${this.secretBox.currentKeyId}:%`;

    let after = '';
    for (;;) {
      const ids = await this.integrations.idsWithStaleSecrets(after, currentPrefix, this.batchSize);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      await this.unitOfWork.run(async (tx) => {
        const integrations = await this.integrations.lockMany(tx, ids);
        for (const integration of integrations) {
          let secrets: Record<string, string>;
          try {
            secrets = this.reencryptAll(integration.id, integration.secrets);
          } catch (error) {
            report.failures.push({ kind: 'integration', id: integration.id, reason: (error as Error).message });
            continue;
          }
          if (secrets === integration.secrets) continue;
          integration.secrets = secrets;
          integration.version += 1;
          await this.integrations.storeSecrets(tx, integration);
          await tx.publish(RoutingKey.IntegrationUpserted, integrationUpsertedEvent(integration, new Date()));
          report.integrations += 1;
        }
      });
    }

    after = '';
    for (;;) {
      const ids = await this.accounts.idsWithStaleSigningSecret(after, currentPrefix, this.batchSize);
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      for (const id of ids) {
        await this.unitOfWork.run((tx) =>
          this.accounts.change(tx, RoutingKey.WebhookSettingsChanged, id, (restaurant: RestaurantEntity) => {
            try {
              const binding = secretBinding.webhookSigningSecret(id);
              const stale = (ciphertext: string | null): ciphertext is string => ciphertext !== null && this.secretBox.needsReencryption(ciphertext, binding);
              const current = restaurant.webhookSigningSecret;
              const previous = restaurant.webhookPreviousSigningSecret;
              if (!stale(current) && !stale(previous)) return false;
              if (stale(current)) restaurant.webhookSigningSecret = this.secretBox.reencrypt(current, binding);
              if (stale(previous)) restaurant.webhookPreviousSigningSecret = this.secretBox.reencrypt(previous, binding);
            } catch (error) {
              report.failures.push({ kind: 'restaurant', id, reason: (error as Error).message });
              return false;
            }
            report.signingSecrets += 1;
          }),
        );
      }
    }
    return report;
  }

  /** The same map when every ciphertext is current, else a new one with the stale ones re-encrypted. */
  private reencryptAll(integrationId: string, secrets: Record<string, string>): Record<string, string> {
    const binding = (field: string) => secretBinding.integrationSecret(integrationId, field);
    const stale = Object.entries(secrets).filter(([field, ciphertext]) => this.secretBox.needsReencryption(ciphertext, binding(field)));
    if (stale.length === 0) return secrets;
    const renewed = { ...secrets };
    for (const [field, ciphertext] of stale) renewed[field] = this.secretBox.reencrypt(ciphertext, binding(field));
    return renewed;
  }
}

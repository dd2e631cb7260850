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
  /** The platform verified the credentials for this restaurant: only then are its platform orders handed to the account. */
  verified: boolean;
}

/** An account as the key pair check reads it. */
export interface DirectoryAccount {
  restaurantId: string;
  status: string;
  apiSecretHash: string;
}

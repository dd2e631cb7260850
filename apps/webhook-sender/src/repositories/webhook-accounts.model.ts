/** The sender's copy of a restaurant account. */
export interface WebhookAccount {
  restaurantId: string;
  name: string;
  status: string;
  apiKeyHash: string;
  apiSecretHash: string;
  statusUrl: string | null;
  cancelUrl: string | null;
  /** SecretBox ciphertext (SECRETS_ENCRYPTION_KEYS); opened only to sign, never stored or logged in clear. */
  signingSecretCiphertext: string | null;
  /** The rotated-out secret (same encryption) and when it stops signing; both null when there is none. */
  previousSigningSecretCiphertext: string | null;
  previousSigningSecretValidUntil: Date | null;
  version: number;
  updatedAt: Date;
}

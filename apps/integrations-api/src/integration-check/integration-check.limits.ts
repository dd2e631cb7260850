/** How many credential checks are allowed (INTEGRATION_CHECK_LIMIT_PER_MINUTE, INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR). */
export interface IntegrationCheckLimits {
  perIntegrationPerMinute: number;
  perAccountPerHour: number;
}

/** Which limit a check is over, given its place in each window's count (undefined: not counted, the store is down). */
export type IntegrationCheckRefusal = 'integration' | 'account' | undefined;

/**
 * Whether a check goes to the platform. The integration's minute is counted first, and the account's
 * hour only for a check the integration's limit let through: hammering one integration does not use
 * up the hour of the account's other integrations. A count the store could not give lets the check
 * through (fail open, as every limit of the suite).
 */
export function integrationCheckRefusal(counts: { integration?: number; account?: number }, limits: IntegrationCheckLimits): IntegrationCheckRefusal {
  if (counts.integration !== undefined && counts.integration > limits.perIntegrationPerMinute) return 'integration';
  if (counts.account !== undefined && counts.account > limits.perAccountPerHour) return 'account';
  return undefined;
}

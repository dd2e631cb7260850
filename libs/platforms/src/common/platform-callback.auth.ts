import { ErrorCode, FieldError } from '@courier/contracts';
import { constantTimeEqual } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import type { InboundIntegration } from './platform-order-intake';

/** A static key or token a platform sends, against the configured one (none configured: nothing matches). */
export function presentedKeyMatches(presented: unknown, expected: string | undefined): boolean {
  return typeof presented === 'string' && presented.length > 0 && presented.length <= 1024 && expected !== undefined && constantTimeEqual(presented, expected);
}

export function callbackUnauthorized(what: string): ProblemException {
  return new ProblemException(401, ErrorCode.AuthenticationFailed, `${what} is missing or wrong.`);
}

export function invalidPlatformPayload(errors: FieldError[]): ProblemException {
  return new ProblemException(422, ErrorCode.ValidationError, 'The platform\'s payload has invalid fields.', errors);
}

/** The integration an order is for, refused the way the platforms expect: 404 unknown, 403 paused. */
export function requireActiveIntegration<T extends InboundIntegration>(integration: T | undefined, platform: string, providerRestaurantId: string): T {
  if (!integration) throw new ProblemException(404, ErrorCode.IntegrationNotFound, `No ${platform} integration has the restaurant ${providerRestaurantId}.`);
  if (!integration.isActive || !integration.accountActive) {
    throw new ProblemException(403, ErrorCode.IntegrationDisabled, `Order intake from ${platform} is paused for this restaurant (integration inactive or account disabled).`);
  }
  return integration;
}

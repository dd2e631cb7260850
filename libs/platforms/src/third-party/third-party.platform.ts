import { PlatformDefinition } from '../common/platform-definition';

export const THIRD_PARTY_CODE = 'THIRD_PARTY';

/**
 * THIRD_PARTY: orders sent by the restaurant's own point-of-sale system to the intake API. Created
 * with the account; its providerRestaurantId is the customer's own id, carried by the webhooks.
 */
export const THIRD_PARTY: PlatformDefinition = {
  code: THIRD_PARTY_CODE,
  title: 'Third-party point of sale',
  fields: [],
  singlePerAccount: true,
  restaurantIdScope: 'account',
};

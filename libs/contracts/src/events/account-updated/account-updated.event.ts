import { AccountSnapshot } from '../account-snapshot/account-snapshot';

/**
 * `account.updated`: the account changed in a way not covered by a more specific key — re-enabled,
 * or its THIRD_PARTY integration created, changed, activated, deactivated or deleted.
 */
export class AccountUpdatedEvent extends AccountSnapshot {}

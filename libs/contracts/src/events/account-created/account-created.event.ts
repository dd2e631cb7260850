import { AccountSnapshot } from '../account-snapshot/account-snapshot';

/** `account.created`: a restaurant account was provisioned (version 1, active, with its THIRD_PARTY integration). */
export class AccountCreatedEvent extends AccountSnapshot {}

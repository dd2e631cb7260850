import { AccountSnapshot } from '../account-snapshot/account-snapshot';

/** `account.disabled`: the operator disabled the account; its keys stop working everywhere. */
export class AccountDisabledEvent extends AccountSnapshot {}

import { AccountSnapshot } from '../account-snapshot/account-snapshot';

/** `account.keys_rotated`: a new API key pair replaced the old one (the old pair stops working). */
export class AccountKeysRotatedEvent extends AccountSnapshot {}

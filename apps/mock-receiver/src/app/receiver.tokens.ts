/** Injection token of the receiver's validated configuration (a ReceiverConfig). */
export const RECEIVER_CONFIG = Symbol('RECEIVER_CONFIG');

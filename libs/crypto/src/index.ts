export * from './encryption-keys';
export * from './secret-box';
export * from './credentials';
export * from './mask';
export * from './webhook-secret';
export * from './webhook-signature';

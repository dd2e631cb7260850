/**
 * Paths pino censors before a line is written. Secrets are never logged: credentials in headers,
 * and any field that carries a secret wherever it appears in a logged object (two levels deep).
 */
const SECRET_FIELDS = [
  'password',
  'secretKey',
  'apiKey',
  'apiSecret',
  'api_secret',
  'signingSecret',
  'secret',
  'token',
  'accessToken',
  'appSecretKey',
  'restaurantSecretKey',
  'authorization',
  'adminToken',
  'internalApiKey',
];

const HEADERS = [
  'authorization',
  'x-api-key',
  'x-api-secret',
  'x-internal-api-key',
  'x-admin-token',
  'cookie',
  'set-cookie',
  'token',
];

export const REDACT_PATHS: string[] = [
  ...HEADERS.map((header) => `req.headers["${header}"]`),
  ...HEADERS.map((header) => `res.headers["${header}"]`),
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...SECRET_FIELDS.map((field) => `*.*.${field}`),
];

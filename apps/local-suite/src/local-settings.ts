import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { generateEncryptionKeyEntry } from '@courier/crypto';

/** Keys the one-machine mode generates once and keeps in `<LOCAL_DATA_DIR>/local-secrets.json`. */
export interface LocalSecrets {
  adminToken: string;
  internalApiKey: string;
  secretsEncryptionKeys: string;
}

export interface LocalSettings {
  dataDir: string;
  intakePort: number;
  posPort: number;
  receiverPort: number;
  embeddedPostgresPort: number;
  secrets: LocalSecrets;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number (1-65535), got "${raw}"`);
  return value;
}

/** Writes a file atomically (temp + rename), readable only by its owner. */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  renameSync(temp, file);
}

/**
 * Keys stay the same across restarts (a new SECRETS_ENCRYPTION_KEYS each start would make every
 * stored secret unreadable). Environment variables win over the stored values.
 */
function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): LocalSecrets {
  const file = path.join(dataDir, 'local-secrets.json');
  let stored: Partial<LocalSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
  const secrets: LocalSecrets = {
    adminToken: stored.adminToken ?? `adm_${randomBytes(24).toString('base64url')}`,
    internalApiKey: stored.internalApiKey ?? `int_${randomBytes(24).toString('base64url')}`,
    secretsEncryptionKeys: stored.secretsEncryptionKeys ?? generateEncryptionKeyEntry('local1'),
  };
  if (JSON.stringify(stored) !== JSON.stringify(secrets)) writeFileAtomic(file, JSON.stringify(secrets, null, 2));
  return {
    adminToken: env.ADMIN_TOKEN || secrets.adminToken,
    internalApiKey: (env.INTERNAL_API_KEYS || secrets.internalApiKey).split(',')[0].trim(),
    secretsEncryptionKeys: env.SECRETS_ENCRYPTION_KEYS || secrets.secretsEncryptionKeys,
  };
}

export function loadLocalSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const dataDir = path.resolve(env.LOCAL_DATA_DIR || '.local');
  mkdirSync(dataDir, { recursive: true });
  return {
    dataDir,
    intakePort: port(env, 'INTAKE_PORT', 3000),
    posPort: port(env, 'POS_PORT', 3001),
    receiverPort: port(env, 'PORT', 4444),
    embeddedPostgresPort: port(env, 'LOCAL_PG_PORT', 54329),
    secrets: loadSecrets(dataDir, env),
  };
}

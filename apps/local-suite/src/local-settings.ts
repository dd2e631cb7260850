import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { PLATFORMS } from '@courier/platforms';
import { generateLocalPlatformSecrets, isLocalPlatformSecrets, LocalPlatformSecrets } from '@courier/platforms/simulators';

/** Keys the one-machine mode generates once and keeps in `<LOCAL_DATA_DIR>/local-secrets.json`. */
export interface LocalSecrets {
  adminToken: string;
  internalApiKey: string;
  secretsEncryptionKeys: string;
  /** Keys the platform simulators share with the suite and the demo integrations' credentials. */
  platforms: LocalPlatformSecrets;
}

/** Ports of the platform simulators by platform code. */
export type LocalPlatformPorts = Record<string, number>;

/** The first simulator's default port; the others follow in the registry's order. */
const FIRST_SIMULATOR_PORT = 4501;

/** Every registered platform with a simulator: `LOCAL_<code>_PORT`, by default the registry's order from FIRST_SIMULATOR_PORT. */
export function platformPorts(env: NodeJS.ProcessEnv): LocalPlatformPorts {
  const codes = PLATFORMS.filter((platform) => 'simulator' in platform && platform.simulator).map((platform) => platform.definition.code);
  return Object.fromEntries(codes.map((code, index) => [code, port(env, `LOCAL_${code}_PORT`, FIRST_SIMULATOR_PORT + index, true)]));
}

export interface LocalSettings {
  dataDir: string;
  /** Where the suite listens (LISTEN_HOST): 127.0.0.1 by default, so nothing is reachable from the network. */
  listenHost: string;
  intakePort: number;
  posPort: number;
  receiverPort: number;
  embeddedPostgresPort: number;
  /** Ports of the platform simulators on 127.0.0.1 (0: a free one). */
  platformPorts: LocalPlatformPorts;
  secrets: LocalSecrets;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero = false): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const lowest = allowZero ? 0 : 1;
  if (!Number.isInteger(value) || value < lowest || value > 65535) throw new Error(`${name} must be a port number (${lowest}-65535), got "${raw}"`);
  return value;
}

function listenHost(env: NodeJS.ProcessEnv): string {
  const raw = (env.LISTEN_HOST ?? '').trim();
  if (raw === '') return '127.0.0.1';
  if (isIP(raw) === 0 && raw !== 'localhost') throw new Error(`LISTEN_HOST must be an IP address (127.0.0.1, or 0.0.0.0 to listen on every interface), got "${raw}"`);
  return raw;
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
  let stored: Partial<Record<keyof LocalSecrets, unknown>> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const secrets: LocalSecrets = {
    adminToken: text(stored.adminToken) ?? `adm_${randomBytes(24).toString('base64url')}`,
    internalApiKey: text(stored.internalApiKey) ?? `int_${randomBytes(24).toString('base64url')}`,
    secretsEncryptionKeys: text(stored.secretsEncryptionKeys) ?? generateEncryptionKeyEntry('local1'),
    // Kept, not generated per start: the demo integrations in the database hold these credentials.
    platforms: isLocalPlatformSecrets(stored.platforms) ? stored.platforms : generateLocalPlatformSecrets(),
  };
  if (JSON.stringify(stored) !== JSON.stringify(secrets)) writeFileAtomic(file, JSON.stringify(secrets, null, 2));
  return {
    adminToken: env.ADMIN_TOKEN || secrets.adminToken,
    internalApiKey: (env.INTERNAL_API_KEYS || secrets.internalApiKey).split(',')[0].trim(),
    secretsEncryptionKeys: env.SECRETS_ENCRYPTION_KEYS || secrets.secretsEncryptionKeys,
    platforms: secrets.platforms,
  };
}

export function loadLocalSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const dataDir = path.resolve(env.LOCAL_DATA_DIR || '.local');
  mkdirSync(dataDir, { recursive: true });
  return {
    dataDir,
    listenHost: listenHost(env),
    intakePort: port(env, 'INTAKE_PORT', 3000),
    posPort: port(env, 'POS_PORT', 3001),
    receiverPort: port(env, 'PORT', 4444),
    embeddedPostgresPort: port(env, 'LOCAL_PG_PORT', 54329),
    platformPorts: platformPorts(env),
    secrets: loadSecrets(dataDir, env),
  };
}

import { randomBytes } from 'node:crypto';
import type { RunningSimulator, StartedLocalSimulator } from './common/local-simulator';
import type { PlatformEntry } from './common/platform-entry';
import { PLATFORMS } from './platforms';

export interface LocalPlatformsOptions {
  /** Where status-dispatcher serves /platforms/... (the one-machine {pos_url}, e.g. http://localhost:3001). */
  callbackBaseUrl: string;
  /** Ports of the simulators on 127.0.0.1, by platform code (0 or absent: free ones). */
  ports?: Partial<Record<string, number>>;
  /**
   * The keys the simulators share with the suite (from `generateLocalPlatformSecrets`). Absent: new
   * ones per start. The one-machine mode keeps them in its data directory, so the demo integrations
   * stored in the database keep working across restarts.
   */
  secrets?: LocalPlatformSecrets;
  /** The platforms whose simulators to start (default: every registered one that has a simulator). */
  platforms?: readonly PlatformEntry[];
}

/** Every generated key of the demo platforms, by the names their simulators declare: the shared ones and the demo integrations' credentials. */
export type LocalPlatformSecrets = Record<string, string>;

const withSimulator = (platforms: readonly PlatformEntry[]) => platforms.filter((platform) => platform.simulator);

/** Fresh random keys for `startLocalPlatforms` (each one at least 8 characters, as the registry asks). */
export function generateLocalPlatformSecrets(platforms: readonly PlatformEntry[] = PLATFORMS): LocalPlatformSecrets {
  const secret = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
  return Object.fromEntries(withSimulator(platforms).flatMap((platform) => Object.entries(platform.simulator!.secrets).map(([name, prefix]) => [name, secret(prefix)])));
}

/** Whether a stored value holds a complete set of keys (a partial or hand-edited file is regenerated). */
export function isLocalPlatformSecrets(value: unknown, platforms: readonly PlatformEntry[] = PLATFORMS): value is LocalPlatformSecrets {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.keys(generateLocalPlatformSecrets(platforms)).every((key) => typeof record[key] === 'string' && (record[key] as string).length >= 8);
}

export interface LocalPlatforms {
  /** Each started simulator, by platform code. */
  simulators: Record<string, RunningSimulator>;
  /** The PLATFORM_* variables that point status-dispatcher and integrations-api at the simulators. */
  env: Record<string, string>;
  /** Create bodies of POST /api/v1/my/integrations whose credentials the simulators accept, by platform code. */
  integrationBodies: Record<string, Record<string, string>>;
  /** How to make a new order on each simulator (its start screen line), by platform code. */
  newOrders: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Every registered platform's simulator for the one-machine mode (each entry's `simulator`), with a
 * demo restaurant on each and the keys they share with the suite (`options.secrets`, else generated
 * for this start). Set `env` before the apps are created, register `integrationBodies` for the demo
 * account, then drive orders through each simulator's `/_simulator/...` routes (see libs/platforms/README.md).
 */
export async function startLocalPlatforms(options: LocalPlatformsOptions): Promise<LocalPlatforms> {
  const platforms = withSimulator(options.platforms ?? PLATFORMS);
  const secrets = options.secrets ?? generateLocalPlatformSecrets(platforms);
  const callbackBaseUrl = options.callbackBaseUrl.replace(/\/+$/, '');
  const started: Array<{ code: string } & StartedLocalSimulator> = [];
  try {
    for (const platform of platforms) {
      const code = platform.definition.code;
      started.push({ code, ...(await platform.simulator!.start({ callbackBaseUrl, port: options.ports?.[code] ?? 0, secrets })) });
    }
  } catch (error) {
    await Promise.all(started.map(({ simulator }) => simulator.stop()));
    throw error;
  }
  return {
    simulators: Object.fromEntries(started.map(({ code, simulator }) => [code, simulator])),
    env: Object.assign({}, ...started.map(({ env }) => env)),
    integrationBodies: Object.fromEntries(started.map(({ code, integrationBody }) => [code, integrationBody])),
    newOrders: Object.fromEntries(started.map(({ code, newOrder }) => [code, newOrder])),
    stop: async () => {
      await Promise.all(started.map(({ simulator }) => simulator.stop()));
    },
  };
}

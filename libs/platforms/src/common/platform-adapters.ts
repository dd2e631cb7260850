import type { PlatformAdapter } from './platform-adapter';
import { PlatformHttpConfig, validatePlatformClientConfig } from './platform-client.config';
import { SessionCache } from './session-cache';
import type { PlatformEntry } from './platform-entry';
import type { SessionStore } from './session-store';

export interface PlatformAdaptersOptions {
  /** Where the sessions live (default: this process's memory); status-dispatcher shares them through PostgreSQL. */
  sessionStore?: SessionStore;
  /** The platforms whose adapters to build (platforms.ts's PLATFORMS), when no adapters are given. */
  platforms?: readonly PlatformEntry[];
}

/**
 * The adapter of each platform, by neutral code. One session cache for all: tokens are per
 * integration, and integrations belong to one platform. The adapters come from the registry's entries.
 */
export class PlatformAdapters {
  private readonly byCode: Map<string, PlatformAdapter>;
  readonly sessions: SessionCache;

  /** `config`: the shared settings and every platform's own, as validatePlatformClientConfig combines them. */
  constructor(readonly config: PlatformHttpConfig, adapters?: PlatformAdapter[], options: PlatformAdaptersOptions = {}) {
    this.sessions = new SessionCache(config.PLATFORM_SESSION_REFRESH_MARGIN_MS, Date.now, options.sessionStore);
    if (!adapters && !options.platforms) throw new Error('PlatformAdapters needs the adapters or the platforms (PLATFORMS) to build them from');
    const list = adapters ?? options.platforms!.flatMap((platform) => (platform.adapter ? [platform.adapter(config, this.sessions)] : []));
    this.byCode = new Map(list.map((adapter) => [adapter.code, adapter]));
  }

  /** Adapters over the PLATFORM_* variables of `env`; throws ConfigurationError naming bad ones. */
  static fromEnv(env: Record<string, string | undefined> = process.env, options: PlatformAdaptersOptions = {}): PlatformAdapters {
    return new PlatformAdapters(validatePlatformClientConfig(options.platforms ?? [], env), undefined, options);
  }

  get(code: string): PlatformAdapter | undefined {
    return this.byCode.get(code);
  }

  codes(): string[] {
    return [...this.byCode.keys()];
  }
}

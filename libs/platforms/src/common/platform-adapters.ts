import { validateConfig } from '@courier/config';
import type { PlatformAdapter } from './platform-adapter';
import { PlatformClientConfig } from './platform-client.config';
import { SessionCache } from './session-cache';
import type { SessionStore } from './session-store';
import { PlatformAAdapter } from '../getir/getir.adapter';
import { PlatformBAdapter } from '../yemeksepeti/yemeksepeti.adapter';
import { PlatformCAdapter } from '../trendyol-go/trendyol-go.adapter';
import { PlatformDAdapter } from '../migros-yemek/migros-yemek.adapter';

export interface PlatformAdaptersOptions {
  /** Where the sessions live (default: this process's memory); status-dispatcher shares them through PostgreSQL. */
  sessionStore?: SessionStore;
}

/**
 * The adapter of each platform, by neutral code. One session cache for all: tokens are per
 * integration, and integrations belong to one platform. A new platform is one adapter here.
 */
export class PlatformAdapters {
  private readonly byCode: Map<string, PlatformAdapter>;
  readonly sessions: SessionCache;

  constructor(readonly config: PlatformClientConfig, adapters?: PlatformAdapter[], options: PlatformAdaptersOptions = {}) {
    this.sessions = new SessionCache(config.PLATFORM_SESSION_REFRESH_MARGIN_MS, Date.now, options.sessionStore);
    const list = adapters ?? [new PlatformAAdapter(config, this.sessions), new PlatformBAdapter(config, this.sessions), new PlatformCAdapter(config), new PlatformDAdapter(config)];
    this.byCode = new Map(list.map((adapter) => [adapter.code, adapter]));
  }

  /** Adapters over the PLATFORM_* variables of `env`; throws ConfigurationError naming bad ones. */
  static fromEnv(env: Record<string, string | undefined> = process.env, options: PlatformAdaptersOptions = {}): PlatformAdapters {
    return new PlatformAdapters(validateConfig(PlatformClientConfig, env), undefined, options);
  }

  get(code: string): PlatformAdapter | undefined {
    return this.byCode.get(code);
  }

  codes(): string[] {
    return [...this.byCode.keys()];
  }
}

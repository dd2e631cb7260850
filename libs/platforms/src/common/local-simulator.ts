/** A running simulator as the suite sees it (the concrete class stays in the platform's folder). */
export interface RunningSimulator {
  baseUrl: string;
  stop(): Promise<void>;
}

/** What the one-machine suite gives a platform's simulator when it starts it. */
export interface LocalSimulatorOptions {
  /** Where status-dispatcher serves /platforms/... (the one-machine {pos_url}, without a trailing slash): its webhooks' target. */
  callbackBaseUrl: string;
  /** Its port on 127.0.0.1 (0: a free one). */
  port: number;
  /** The values of its `secrets` names (kept by the suite, so stored demo integrations stay valid across restarts). */
  secrets: Readonly<Record<string, string>>;
}

/** A platform's simulator started for the one-machine suite, with one demo restaurant. */
export interface StartedLocalSimulator {
  simulator: RunningSimulator;
  /** The PLATFORM_* variables that point the apps at it (its base URL and the keys it shares with the suite). */
  env: Record<string, string>;
  /** The create body of POST /api/v1/my/integrations whose credentials it accepts (its demo restaurant). */
  integrationBody: Record<string, string>;
  /** How a user makes a new order on it, for the suite's start screen (one line: what, and the curl command). */
  newOrder: string;
}

/**
 * How the one-machine suite runs a platform's simulator (the registry entry's `simulator`). `start`
 * loads the simulator only when called, so the apps that import the registry never load it.
 */
export interface LocalSimulatorEntry {
  /** The keys it shares with the suite and its demo credentials: name -> prefix of the generated value. */
  secrets: Readonly<Record<string, string>>;
  start(options: LocalSimulatorOptions): Promise<StartedLocalSimulator>;
}

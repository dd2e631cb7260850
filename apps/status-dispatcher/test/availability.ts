/* eslint-disable @typescript-eslint/no-explicit-any -- bodies of tests are loosely typed, as in the specs */
import { randomBytes } from 'node:crypto';
import { AccountSnapshot, RoutingKey } from '@courier/contracts';
import { hashCredential } from '@courier/crypto';
import {
  IntegrationCredentials,
  PlatformAdapters,
  PlatformAvailability,
  PlatformCallOutcome,
  ProductAvailabilityChange,
  ProductAvailabilityPlan,
  StoreAvailabilityPlan,
  StoreAvailabilityRequest,
  StoreReadOutcome,
} from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { newRestaurantId, TestApp } from './harness';

/** An account of the app's read model with a key pair, as integrations-api announces it. */
export interface TestAccount {
  restaurantId: string;
  headers: Record<string, string>;
}

export async function createAccount(t: TestApp, options: { status?: 'active' | 'disabled' } = {}): Promise<TestAccount> {
  const restaurantId = newRestaurantId();
  const apiKey = `key_${randomBytes(12).toString('hex')}`;
  const apiSecret = `sec_${randomBytes(16).toString('hex')}`;
  const now = new Date().toISOString();
  const snapshot: AccountSnapshot = {
    restaurantId,
    name: 'Availability test',
    status: options.status ?? 'active',
    apiKeyHash: hashCredential(apiKey),
    apiSecretHash: hashCredential(apiSecret),
    thirdParty: null,
    webhooks: { statusUrl: null, cancelUrl: null, signingSecretCiphertext: null },
    version: 1,
    createdAt: now,
    occurredAt: now,
  };
  await t.deliver(RoutingKey.AccountCreated, snapshot);
  return { restaurantId, headers: { 'X-API-Key': apiKey, 'X-API-Secret': apiSecret } };
}

export interface RecordedCall {
  kind: 'store' | 'product';
  integrationId: string;
  state?: string;
  params: Record<string, unknown>;
  product?: ProductAvailabilityChange;
  at: number;
}

/**
 * A platform's availability at the port, for the dispatcher's machinery: plans like a platform with
 * a busy mode (or without, `busy: false`), records every call it gets, answers each call with the
 * next scripted outcome (default: done), can hold calls until released, and reports a store state
 * on read. Installed in place of the adapter's own for the tests of the commands, not of a platform.
 */
export class RecordingAvailability implements PlatformAvailability {
  readonly calls: RecordedCall[] = [];
  private readonly script: PlatformCallOutcome[] = [];
  private held: Array<() => void> | undefined;
  /** Each store's state as this platform holds it: what its calls set, or what it did by itself. */
  readonly stores = new Map<string, StoreAvailabilityRequest['state']>();

  /** Absent where the platform gives no read of the store (`readable: false`). */
  readStore?: (credentials: IntegrationCredentials) => Promise<StoreReadOutcome>;

  constructor(private readonly options: { busy?: boolean; readable?: boolean } = {}) {
    if (options.readable !== false) this.readStore = (credentials) => this.read(credentials);
  }

  planStore(request: StoreAvailabilityRequest): StoreAvailabilityPlan {
    if (request.state === 'BUSY' && this.options.busy === false) return { kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED', message: 'no busy mode on this platform' };
    return { kind: 'send', state: request.state, params: { busyMinutes: request.busyMinutes ?? null } };
  }

  planProduct(change: ProductAvailabilityChange): ProductAvailabilityPlan {
    return { kind: 'send', params: { status: change.available ? 'ACTIVE' : 'PASSIVE' } };
  }

  async setStore(credentials: IntegrationCredentials, plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    this.calls.push({ kind: 'store', integrationId: credentials.integrationId, state: plan.state, params: plan.params, at: Date.now() });
    const outcome = await this.answer();
    if (outcome.kind === 'done') this.stores.set(credentials.integrationId, plan.state);
    return outcome;
  }

  async setProduct(credentials: IntegrationCredentials, change: ProductAvailabilityChange, plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome> {
    this.calls.push({ kind: 'product', integrationId: credentials.integrationId, product: change, params: plan.params, at: Date.now() });
    return this.answer();
  }

  private async read(credentials: IntegrationCredentials): Promise<StoreReadOutcome> {
    const state = this.stores.get(credentials.integrationId) ?? 'OPEN';
    return { kind: 'ok', state, ...(state === 'CLOSED' ? { platformReason: 'closed by the platform' } : {}), answer: { httpStatus: 200, body: { status: state } } };
  }

  /** The next calls answer these outcomes, in order. */
  answerNext(...outcomes: PlatformCallOutcome[]): void {
    this.script.push(...outcomes);
  }

  /** Calls from now on wait until release(). */
  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const resume of waiting) resume();
  }

  storeCalls(integrationId: string): string[] {
    return this.calls.filter((call) => call.kind === 'store' && call.integrationId === integrationId).map((call) => call.state!);
  }

  private async answer(): Promise<PlatformCallOutcome> {
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    return this.script.shift() ?? { kind: 'done', answer: { httpStatus: 200, body: { ok: true } } };
  }
}

/** Puts `availability` in place of the platform adapter's own, in this app. */
export function installAvailability(t: TestApp, platform: string, availability: PlatformAvailability | undefined): void {
  Object.defineProperty(t.app.get(PlatformAdapters).get(platform)!, 'availability', { value: availability, configurable: true, writable: true });
}

export function putAvailability(t: TestApp, account: TestAccount, body: Record<string, unknown>) {
  return t.http.put('/api/v1/my/availability').set(account.headers).send(body);
}

export async function availabilityOf(t: TestApp, account: TestAccount, integrationId: string): Promise<any> {
  const response = await t.http.get('/api/v1/my/availability').set(account.headers);
  if (response.status !== 200) throw new Error(`GET /api/v1/my/availability answered ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.integrations.find((entry: any) => entry.integrationId === integrationId);
}

/** Waits until the integration's newest command is in one of `states` (and, when given, asks for `asked`); returns its view. */
export async function waitForCommand(t: TestApp, account: TestAccount, integrationId: string, states: string[], asked?: string, timeoutMs = 20_000): Promise<any> {
  let last: any;
  try {
    await waitFor(
      `integration ${integrationId}'s last command in ${states.join('|')}${asked ? ` asking ${asked}` : ''}`,
      async () => {
        last = await availabilityOf(t, account, integrationId);
        return states.includes(last?.lastCommand?.state) && (!asked || last?.asked?.state === asked);
      },
      timeoutMs,
      50,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
  }
  return last;
}

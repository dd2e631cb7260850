import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './local-settings';

/** What the one-machine mode prints and writes to `<LOCAL_DATA_DIR>/demo.json`. */
export interface DemoCredentials {
  intakeUrl: string;
  posUrl: string;
  receiverUrl: string;
  restaurantId: string;
  providerRestaurantId: string;
  apiKey: string;
  apiSecret: string;
  signingSecret: string;
  internalApiKey: string;
  adminToken: string;
  /** The demo restaurant's integration on each simulated platform (absent until they are registered). */
  platforms?: Partial<Record<PlatformCode, DemoPlatform>>;
}

/** A registered platform's code: the suite demos every platform that has a simulator. */
export type PlatformCode = string;

export interface DemoPlatform {
  /** The simulator of the platform's API (its `/_simulator/...` routes drive it). */
  simulatorUrl: string;
  integrationId: string;
  providerRestaurantId: string;
  isActive: boolean;
}

interface IntegrationRecord {
  id: string;
  platform: string;
  providerRestaurantId: string;
  isActive: boolean;
}

interface CreatedRestaurant {
  restaurantId: string;
  apiKey: string;
  apiSecret: string;
  signingSecret?: string;
  thirdParty?: { providerRestaurantId: string };
}

export function demoFile(dataDir: string): string {
  return path.join(dataDir, 'demo.json');
}

export function writeDemo(dataDir: string, demo: DemoCredentials): void {
  writeFileAtomic(demoFile(dataDir), JSON.stringify(demo, null, 2));
}

function readDemo(dataDir: string): Partial<DemoCredentials> {
  const file = demoFile(dataDir);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoCredentials>;
  } catch {
    return {};
  }
}

/**
 * Provisions the demo restaurant through the admin API, as an operator would, with its webhook URLs
 * pointing at the reference receiver and a signing secret. On a restart the restaurant recorded in
 * demo.json is reused when it still exists (its key pair is shown only once, at creation).
 */
export async function ensureDemoRestaurant(options: {
  posUrl: string;
  /** Where the suite reaches {pos_url} itself (127.0.0.1); posUrl is what demo.json shows. */
  provisionUrl: string;
  intakeUrl: string;
  receiverUrl: string;
  /** The receiver's origin as the webhook URLs name it (the one WEBHOOK_ALLOWED_INSECURE_ORIGINS allows). */
  webhookBaseUrl: string;
  dataDir: string;
  adminToken: string;
  internalApiKey: string;
}): Promise<DemoCredentials> {
  const headers = { 'X-Admin-Token': options.adminToken, 'Content-Type': 'application/json' };
  const previous = readDemo(options.dataDir);
  if (previous.restaurantId && previous.apiKey && previous.apiSecret && previous.signingSecret) {
    const found = await fetch(`${options.provisionUrl}/admin/v1/restaurants/${encodeURIComponent(previous.restaurantId)}`, { headers });
    if (found.ok) {
      // Webhook URLs saved by an older version (http://localhost:...) would now be refused at send time.
      const urls = await fetch(`${options.provisionUrl}/api/v1/my/webhooks`, {
        method: 'PUT',
        headers: { 'X-API-Key': previous.apiKey, 'X-API-Secret': previous.apiSecret, 'Content-Type': 'application/json' },
        body: JSON.stringify({ statusUrl: `${options.webhookBaseUrl}/webhook/status`, cancelUrl: `${options.webhookBaseUrl}/webhook/cancel` }),
      });
      if (!urls.ok) throw new Error(`could not point the demo restaurant's webhooks at the receiver: ${await problemText(urls)}`);
      const demo = { ...(previous as DemoCredentials), platforms: undefined, intakeUrl: options.intakeUrl, posUrl: options.posUrl, receiverUrl: options.receiverUrl, adminToken: options.adminToken, internalApiKey: options.internalApiKey };
      writeFileAtomic(demoFile(options.dataDir), JSON.stringify(demo, null, 2));
      return demo;
    }
  }
  const response = await fetch(`${options.provisionUrl}/admin/v1/restaurants`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Demo Restaurant',
      providerRestaurantId: 'demo-restaurant-1',
      statusUrl: `${options.webhookBaseUrl}/webhook/status`,
      cancelUrl: `${options.webhookBaseUrl}/webhook/cancel`,
      generateSigningSecret: true,
    }),
  });
  if (response.status !== 201) throw new Error(`could not provision the demo restaurant: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as CreatedRestaurant;
  const demo: DemoCredentials = {
    intakeUrl: options.intakeUrl,
    posUrl: options.posUrl,
    receiverUrl: options.receiverUrl,
    restaurantId: created.restaurantId,
    providerRestaurantId: created.thirdParty?.providerRestaurantId ?? 'demo-restaurant-1',
    apiKey: created.apiKey,
    apiSecret: created.apiSecret,
    signingSecret: created.signingSecret ?? '',
    internalApiKey: options.internalApiKey,
    adminToken: options.adminToken,
  };
  writeFileAtomic(demoFile(options.dataDir), JSON.stringify(demo, null, 2));
  return demo;
}

/** Whether the integration is verified within a few seconds (the verification integrations-api starts after a change). */
async function verifiedSoon(base: string, headers: Record<string, string>, id: string): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const response = await fetch(`${base}/${encodeURIComponent(id)}`, { headers });
    const state = response.status === 200 ? ((await response.json()) as { verification?: { state?: string } }).verification?.state : undefined;
    if (state === 'verified') return true;
    if (state === 'failed' || Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function problemText(response: Response): Promise<string> {
  return `${response.status} ${(await response.text()).slice(0, 500)}`;
}

/**
 * Registers the demo restaurant's integration on each simulated platform through the customer API,
 * as a restaurant would. Idempotent across restarts: an integration that exists (same platform and
 * providerRestaurantId) gets the credentials sent again, which changes nothing when they match (the
 * simulators' keys are kept in local-secrets.json) and repairs them when they do not (e.g. a data
 * directory reset while DATABASE_URL points at an older database). An integration the operator
 * deactivated stays inactive. Each is then verified with POST .../check against its simulator (the
 * start fails if one is not: its platform orders would be withheld).
 */
export async function ensurePlatformIntegrations(options: {
  posUrl: string;
  apiKey: string;
  apiSecret: string;
  bodies: Record<PlatformCode, Record<string, string>>;
  simulatorUrls: Record<PlatformCode, string>;
}): Promise<Record<PlatformCode, DemoPlatform>> {
  const headers = { 'X-API-Key': options.apiKey, 'X-API-Secret': options.apiSecret, 'Content-Type': 'application/json' };
  const base = `${options.posUrl}/api/v1/my/integrations`;
  const find = async (platform: PlatformCode, providerRestaurantId: string): Promise<IntegrationRecord | undefined> => {
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ platform, ...(cursor ? { cursor } : {}) });
      const response = await fetch(`${base}?${query.toString()}`, { headers });
      if (response.status !== 200) throw new Error(`could not list the demo ${platform} integrations: ${await problemText(response)}`);
      const page = (await response.json()) as { data: IntegrationRecord[]; nextCursor: string | null };
      const found = page.data.find((record) => record.providerRestaurantId === providerRestaurantId);
      if (found) return found;
      cursor = page.nextCursor;
    } while (cursor);
    return undefined;
  };

  const result = {} as Record<PlatformCode, DemoPlatform>;
  for (const platform of Object.keys(options.bodies) as PlatformCode[]) {
    const body = options.bodies[platform];
    let record = await find(platform, body.providerRestaurantId);
    let created = false;
    if (!record) {
      const response = await fetch(base, { method: 'POST', headers, body: JSON.stringify(body) });
      if (response.status === 201) [record, created] = [(await response.json()) as IntegrationRecord, true];
      // 409 INTEGRATION_EXISTS: registered meanwhile; updated below like any existing one.
      else if (response.status === 409) record = await find(platform, body.providerRestaurantId);
      else throw new Error(`could not register the demo ${platform} integration: ${await problemText(response)}`);
      // A platform restaurant belongs to one integration across all accounts: another account (an
      // older demo restaurant whose demo.json is gone, with DATABASE_URL kept) holds it.
      if (!record) {
        throw new Error(
          `the demo ${platform} restaurant ${body.providerRestaurantId} is held by another account's integration: ` +
            `\`npm run admin -- lookup-platform-restaurant --platform ${platform} --provider-restaurant-id ${body.providerRestaurantId}\` shows which; ` +
            'start on a fresh database, or register a provisional integration and transfer the restaurant to it (transfer-platform-restaurant)',
        );
      }
    }
    if (!created) {
      const { platform: _platform, providerRestaurantId: _providerRestaurantId, ...credentials } = body;
      const response = await fetch(`${base}/${encodeURIComponent(record.id)}`, { method: 'PUT', headers, body: JSON.stringify(credentials) });
      if (response.status !== 200) throw new Error(`could not update the demo ${platform} integration: ${await problemText(response)}`);
      record = (await response.json()) as IntegrationRecord;
    }
    // Verified through the real check against its simulator (a new or changed integration is checked at once
    // in integrations-api; one verified at an earlier start stays so): only a verified integration gets its orders.
    if (!(await verifiedSoon(base, headers, record.id))) {
      const check = await fetch(`${base}/${encodeURIComponent(record.id)}/check`, { method: 'POST', headers });
      if (check.status !== 200) throw new Error(`could not verify the demo ${platform} integration: ${await problemText(check)}`);
      const verdict = (await check.json()) as { result: string; detail: string; verification?: { state: string } };
      if (verdict.verification?.state !== 'verified') {
        throw new Error(`the demo ${platform} integration was not verified by its simulator (${verdict.result}: ${verdict.detail}); its orders would be withheld`);
      }
    }
    result[platform] = { simulatorUrl: options.simulatorUrls[platform], integrationId: record.id, providerRestaurantId: record.providerRestaurantId, isActive: record.isActive };
  }
  return result;
}

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
  intakeUrl: string;
  receiverUrl: string;
  dataDir: string;
  adminToken: string;
  internalApiKey: string;
}): Promise<DemoCredentials> {
  const headers = { 'X-Admin-Token': options.adminToken, 'Content-Type': 'application/json' };
  const previous = readDemo(options.dataDir);
  if (previous.restaurantId && previous.apiKey && previous.apiSecret && previous.signingSecret) {
    const found = await fetch(`${options.posUrl}/admin/v1/restaurants/${encodeURIComponent(previous.restaurantId)}`, { headers });
    if (found.ok) {
      const demo = { ...(previous as DemoCredentials), intakeUrl: options.intakeUrl, posUrl: options.posUrl, receiverUrl: options.receiverUrl, adminToken: options.adminToken, internalApiKey: options.internalApiKey };
      writeFileAtomic(demoFile(options.dataDir), JSON.stringify(demo, null, 2));
      return demo;
    }
  }
  const response = await fetch(`${options.posUrl}/admin/v1/restaurants`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Demo Restaurant',
      providerRestaurantId: 'demo-restaurant-1',
      statusUrl: `${options.receiverUrl}/webhook/status`,
      cancelUrl: `${options.receiverUrl}/webhook/cancel`,
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

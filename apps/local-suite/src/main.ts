import './tracing';
import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import http from 'node:http';
import path from 'node:path';
import { APP_CONFIG } from '@courier/config';
import { applyServerTimeouts, buildOpenApiDocument, createHttpApp, HttpServerSettings, mergeOpenApiDocuments, reportStartupFailure, serveOpenApiDocument } from '@courier/http';
import { EmbeddedPostgresHandle, EmbeddedPostgresPortInUseError, startEmbeddedPostgres } from '@courier/persistence';
import { createAppModule as createIntakeModule, PERSISTENCE as INTAKE_DATA, SERVICE_DESCRIPTION as INTAKE_API } from '@courier/intake-api';
import { createAppModule as createIntegrationsModule, PERSISTENCE as INTEGRATIONS_DATA, SERVICE_DESCRIPTION as INTEGRATIONS_API } from '@courier/integrations-api';
import { createAppModule as createDispatcherModule, PERSISTENCE as DISPATCHER_DATA, SERVICE_DESCRIPTION as DISPATCHER_API } from '@courier/status-dispatcher';
import { createAppModule as createSenderModule, PERSISTENCE as SENDER_DATA, SERVICE_DESCRIPTION as SENDER_API } from '@courier/webhook-sender';
import { createReceiverApp } from '@courier/mock-receiver';
import { startLocalPlatforms } from '@courier/platforms/simulators';
import { ensureDemoRestaurant, ensurePlatformIntegrations, writeDemo } from './demo-restaurant';
import { loadLocalSettings } from './local-settings';
import { createPosGateway, PosRoutes } from './pos-gateway';

/** On the embedded server each app signs in as its own role, which owns only that app's schema (as in the distributed mode: k8s/README.md). */
const APP_ROLES = {
  intake: { role: 'intake_api', schema: INTAKE_DATA.schema },
  integrations: { role: 'integrations_api', schema: INTEGRATIONS_DATA.schema },
  dispatcher: { role: 'status_dispatcher', schema: DISPATCHER_DATA.schema },
  sender: { role: 'webhook_sender', schema: SENDER_DATA.schema },
} as const;

/**
 * The one-machine mode: every app of the suite in this process, sharing the in-process broker
 * (unless RABBITMQ_URL is set), on an embedded PostgreSQL (unless DATABASE_URL is set), with the
 * demo restaurant provisioned, the reference receiver wired to it, and a simulator of each delivery
 * platform's API on which the demo restaurant is registered (platform orders in, status calls out).
 */
async function main(): Promise<void> {
  const settings = loadLocalSettings();
  const started = Date.now();
  let database: EmbeddedPostgresHandle | undefined;
  if (!process.env.DATABASE_URL) {
    process.stdout.write(`Starting embedded PostgreSQL (data in ${path.join(settings.dataDir, 'pgdata')})...\n`);
    database = await startEmbeddedPostgres({
      dataDir: path.join(settings.dataDir, 'pgdata'),
      port: settings.embeddedPostgresPort,
      portSetting: 'LOCAL_PG_PORT',
      databases: ['courier'],
      appRoles: Object.values(APP_ROLES),
    });
    if (database.note) process.stdout.write(`Note: ${database.note}.\n`);
  }
  // The apps share this process and its environment: each reads its own copy with its own
  // DATABASE_URL (its role on the embedded server; the one given URL otherwise).
  const envOf = (app: keyof typeof APP_ROLES) => (database ? { ...process.env, DATABASE_URL: database.url('courier', APP_ROLES[app].role) } : process.env);
  process.env.ADMIN_TOKEN = settings.secrets.adminToken;
  process.env.INTERNAL_API_KEYS = process.env.INTERNAL_API_KEYS || settings.secrets.internalApiKey;
  process.env.SECRETS_ENCRYPTION_KEYS = settings.secrets.secretsEncryptionKeys;
  // Webhooks stay https-only with public addresses, as in production, except for the reference
  // receiver's own origin (plain HTTP on loopback): exactly that one is allowed, nothing else local.
  const receiverOrigin = `http://127.0.0.1:${settings.receiverPort}`;
  process.env.WEBHOOK_ALLOW_INSECURE_URLS ??= 'false';
  process.env.WEBHOOK_ALLOWED_INSECURE_ORIGINS ??= receiverOrigin;
  process.env.LOG_LEVEL ??= 'warn';

  // The platform simulators first: the apps read their PLATFORM_* variables (base URLs, shared keys)
  // when they are created. Their keys are kept in local-secrets.json, as the demo integrations are.
  const posCallbackUrl = `http://127.0.0.1:${settings.posPort}`;
  const platforms = await startLocalPlatforms({ callbackBaseUrl: posCallbackUrl, ports: settings.platformPorts, secrets: settings.secrets.platforms });
  Object.assign(process.env, platforms.env);

  const apps: INestApplication[] = [];
  const servers: http.Server[] = [];
  const shutdown = async (signal: string) => {
    process.stdout.write(`\n${signal}: stopping the suite...\n`);
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    for (const app of [...apps].reverse()) await app.close().catch((error) => process.stderr.write(`close failed: ${String(error)}\n`));
    await platforms.stop().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    process.exit(0);
  };
  const takeOverSignals = () => {
    // Each app registers Nest's shutdown hooks, which close that app and re-raise the signal; here
    // one handler closes every app in order and then exits, so they must not race it.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.removeAllListeners(signal);
      process.once(signal, () => void shutdown(signal));
    }
  };
  takeOverSignals();

  // {pos_url} is one host for three apps: its /docs is their three documents in one (below).
  const [integrations, dispatcher, sender, intake] = await Promise.all([
    createHttpApp(createIntegrationsModule({ env: envOf('integrations') }), { ...INTEGRATIONS_API, serveDocs: false }),
    createHttpApp(createDispatcherModule({ env: envOf('dispatcher') }), { ...DISPATCHER_API, serveDocs: false }),
    createHttpApp(createSenderModule({ env: envOf('sender') }), { ...SENDER_API, serveDocs: false }),
    createHttpApp(createIntakeModule({ env: envOf('intake') }), INTAKE_API),
  ]);
  apps.push(integrations, dispatcher, sender, intake);
  if (integrations.get<HttpServerSettings>(APP_CONFIG).OPENAPI_DOCS_ENABLED) serveOpenApiDocument(integrations, posDocument({ integrations, dispatcher, sender }));
  for (const app of apps) await app.init();

  await intake.listen(settings.intakePort, settings.listenHost);
  const gateway = createPosGateway({ integrations, dispatcher, sender });
  // The one {pos_url} port is this server, not the apps' own: it gets their slow-client limits.
  applyServerTimeouts(gateway, integrations.get<HttpServerSettings>(APP_CONFIG));
  servers.push(gateway);
  await new Promise<void>((resolve, reject) => gateway.once('error', reject).listen(settings.posPort, settings.listenHost, resolve));

  const intakeUrl = `http://localhost:${settings.intakePort}`;
  const posUrl = `http://localhost:${settings.posPort}`;
  const receiverUrl = `http://localhost:${settings.receiverPort}`;
  // The suite talks to itself over 127.0.0.1 (what it listens on by default; "localhost" may resolve to ::1 first).
  const internalIntakeUrl = `http://127.0.0.1:${settings.intakePort}`;
  const internalPosUrl = `http://127.0.0.1:${settings.posPort}`;
  const demo = await ensureDemoRestaurant({
    posUrl,
    provisionUrl: internalPosUrl,
    intakeUrl,
    receiverUrl,
    webhookBaseUrl: receiverOrigin,
    dataDir: settings.dataDir,
    adminToken: settings.secrets.adminToken,
    internalApiKey: settings.secrets.internalApiKey,
  });

  const simulatorUrls: Record<string, string> = Object.fromEntries(Object.entries(platforms.simulators).map(([code, simulator]) => [code, simulator.baseUrl]));
  demo.platforms = await ensurePlatformIntegrations({ posUrl: internalPosUrl, apiKey: demo.apiKey, apiSecret: demo.apiSecret, bodies: platforms.integrationBodies, simulatorUrls });
  writeDemo(settings.dataDir, demo);

  const receiver = await createReceiverApp({
    SERVICE_API_URL: internalIntakeUrl,
    SERVICE_API_KEY: demo.apiKey,
    SERVICE_RESTAURANT_ID: demo.restaurantId,
    WEBHOOK_SECRET: demo.signingSecret,
    PORT: settings.receiverPort,
    LOCAL_DATA_DIR: settings.dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL,
    // The dashboard moves sent orders as the courier core does (internal transitions on {pos_url}).
    SERVICE_INTERNAL_URL: internalPosUrl,
    SERVICE_INTERNAL_API_KEY: demo.internalApiKey,
    // With LISTEN_HOST=0.0.0.0 the dashboard is reached by other names too: those go here.
    RECEIVER_ALLOWED_HOSTS: process.env.RECEIVER_ALLOWED_HOSTS,
  });
  apps.unshift(receiver);
  await receiver.listen(settings.receiverPort, settings.listenHost);
  takeOverSignals();

  process.stdout.write(
    [
      '',
      `Courier integration suite is up (${((Date.now() - started) / 1000).toFixed(1)} s).`,
      `  Intake        {base_url}  ${intakeUrl}   (POST /webhook/third-party/order, OpenAPI ${intakeUrl}/docs)`,
      `  Management    {pos_url}   ${posUrl}   (/api/v1/my/..., /internal/..., /admin/v1/..., OpenAPI ${posUrl}/docs)`,
      `  Receiver      {mock_url}  ${receiverUrl}   (dashboard: open it in a browser)`,
      '',
      'Demo restaurant (also in ' + path.join(settings.dataDir, 'demo.json') + '):',
      `  restaurantId      ${demo.restaurantId}`,
      `  apiKey            ${demo.apiKey}`,
      `  apiSecret         ${demo.apiSecret}`,
      `  signingSecret     ${demo.signingSecret}`,
      `  internalApiKey    ${demo.internalApiKey}`,
      `  adminToken        ${demo.adminToken}`,
      '',
      'Platform simulators (the demo restaurant is registered on each; see README "Try a platform order"):',
      ...Object.entries(simulatorUrls).map(([code, url]) => `  ${code}  ${url}   ${platforms.newOrders[code]}`),
      `  The order: GET ${posUrl}/internal/orders/{yemekKuryeOrderId}; its status: POST ${posUrl}/internal/orders/status (X-Internal-Api-Key);`,
      `  the calls a platform received: GET <simulator>/_simulator/calls.`,
      '',
      'Ctrl+C stops the suite; data stays in ' + settings.dataDir + '.',
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  // A taken port is the user's to fix: one line naming the setting, no stack.
  if (error instanceof EmbeddedPostgresPortInUseError) process.stderr.write(`${error.message}\n`);
  else reportStartupFailure(error);
  process.exit(1);
});

/** Everything {pos_url} serves, as one OpenAPI document: management and admin, internal and platform callbacks, deliveries. */
function posDocument({ integrations, dispatcher, sender }: PosRoutes) {
  return mergeOpenApiDocuments(
    {
      title: 'Courier integration suite ({pos_url})',
      description: [INTEGRATIONS_API, DISPATCHER_API, SENDER_API].map((api) => `**${api.title}**: ${api.description ?? ''}`).join('\n\n'),
    },
    [
      { prefix: 'integrations', document: buildOpenApiDocument(integrations, INTEGRATIONS_API) },
      { prefix: 'dispatcher', document: buildOpenApiDocument(dispatcher, DISPATCHER_API) },
      { prefix: 'sender', document: buildOpenApiDocument(sender, SENDER_API) },
    ],
  );
}

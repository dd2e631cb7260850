/**
 * k8s/: renders the kustomize base and overlays with `kubectl kustomize`, validates every object
 * against the Kubernetes schemas (kubernetes-models), and checks what ties the objects to each other
 * and to the code: selectors, ports, probes, the variables each app requires (derived from its
 * config class), Secret references (never values), the Ingress routes and the NetworkPolicies.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { effectiveImage, parseDockerfile } from './dockerfile';
import {
  acceptedVariables,
  configDefaults,
  configProblems,
  Deployable,
  deployables,
  portVariable,
  productionVariables,
  requiredVariables,
  sourceOfBuildOutput,
  workspacePath,
} from './deployables';
import {
  containerEnvironment,
  K8sObject,
  LabelSelector,
  named,
  ofKind,
  parseYamlDocuments,
  podTemplates,
  renderKustomization,
  routeRequest,
  schemaErrors,
  selects,
  serviceSelects,
} from './manifests';

const RENDERS = ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'] as const;
const OVERLAY_NAMESPACES: Record<string, string> = { 'k8s/overlays/dev': 'courier-dev', 'k8s/overlays/prod': 'courier' };
/** The reference receiver is a test tool: dev only, one replica (its state is a file). */
const DEV_ONLY_APPS = ['mock-receiver'];
const NOT_AUTOSCALED = { 'mock-receiver': 'one replica: it keeps its state in a file' } as Record<string, string>;
/** Namespace of the ingress controller the NetworkPolicies admit (k8s/README.md). */
const INGRESS_CONTROLLER_NAMESPACE = 'ingress-nginx';
/** Public routes of the spec: {base_url} is the intake host, {pos_url} the management host. */
const PUBLIC_ROUTES: { host: 'intake' | 'pos'; path: string; service: string }[] = [
  { host: 'intake', path: '/webhook/third-party/order', service: 'intake-api' },
  { host: 'intake', path: '/api/v1/orders', service: 'intake-api' },
  { host: 'intake', path: '/api/v1/orders/ord_123/status', service: 'intake-api' },
  { host: 'pos', path: '/api/v1/my/integrations', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/integrations/PLATFORM_A/credentials', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/webhooks', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/webhooks/test', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/webhooks/deliveries', service: 'webhook-sender' },
  { host: 'pos', path: '/api/v1/my/webhooks/deliveries/del_1/redeliver', service: 'webhook-sender' },
  // The platforms' order webhooks and plugin endpoints come from the internet.
  { host: 'pos', path: '/platforms/platform-a/orders', service: 'status-dispatcher' },
  { host: 'pos', path: '/platforms/platform-a/orders/cancelled', service: 'status-dispatcher' },
  { host: 'pos', path: '/platforms/platform-b/order/vendor-1', service: 'status-dispatcher' },
  { host: 'pos', path: '/platforms/platform-b/remoteId/vendor-1/remoteOrder/ord-1/posOrderStatus', service: 'status-dispatcher' },
  { host: 'pos', path: '/platforms/platform-d/orders', service: 'status-dispatcher' },
  // The restaurant's availability and its products' are the dispatcher's; the rest of an integration is integrations-api's.
  { host: 'pos', path: '/api/v1/my/availability', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/products/lahmacun-2/availability', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/products/availability', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/activate', service: 'integrations-api' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/productsx', service: 'integrations-api' },
  // The restaurant's catalog and an integration's menu import are the dispatcher's too.
  { host: 'pos', path: '/api/v1/my/catalog', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/catalog/unmapped', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/catalog/products/ADANA-01/links', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/catalog/imports/0b5e0f38-7a0e-4b8b-9a55-2f1c7c4d8a11', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/catalog/import', service: 'status-dispatcher' },
  { host: 'pos', path: '/api/v1/my/integrations/7d0b8d2e/catalogx', service: 'integrations-api' },
];
/** Never reachable through the public Ingress, on either host. */
const NOT_PUBLIC = ['/admin/v1', '/admin/v1/accounts', '/internal/orders/status', '/internal', '/internal/status-updates/su_1', '/internal/restaurants/rest_1/availability', '/health', '/health/ready', '/metrics', '/docs', '/docs-json', '/', '/api/v1/my/webhooksX', '/platformsX', '/internal/platforms'];

const apps = deployables();
const dockerfile = parseDockerfile(readFileSync(workspacePath('docker/Dockerfile'), 'utf8'));
const exampleSecrets = parseYamlDocuments(readFileSync(workspacePath('k8s/secret.example.yaml'), 'utf8'));
const rendered = Object.fromEntries(RENDERS.map((dir) => [dir, renderKustomization(dir)])) as Record<(typeof RENDERS)[number], K8sObject[]>;

function exampleSecretValue(name: string, key: string): string | undefined {
  const secret = named(exampleSecrets, 'Secret', name);
  return secret?.stringData?.[key] ?? secret?.data?.[key];
}

function appsIn(dir: string): Deployable[] {
  return apps.filter((app) => dir === 'k8s/overlays/dev' || !DEV_ONLY_APPS.includes(app.name));
}

/** Resolves a probe or Service port (name or number) against a container's ports. */
 
function containerPort(container: any, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return (container.ports ?? []).some((entry: { containerPort: number }) => entry.containerPort === port) ? port : undefined;
  return (container.ports ?? []).find((entry: { name?: string }) => entry.name === port)?.containerPort;
}

/** The environment a container gets, with Secret values taken from k8s/secret.example.yaml. */
 
function environmentOf(container: any, objects: K8sObject[]) {
  const { sources, problems } = containerEnvironment(container, objects);
  const env: Record<string, string> = {};
  const guaranteed = new Set<string>();
  for (const source of sources) {
    if (source.from === 'secret') {
      const value = exampleSecretValue(source.ref!.name, source.ref!.key);
      if (value === undefined) problems.push(`${source.name}: Secret ${source.ref!.name} key ${source.ref!.key} is not in k8s/secret.example.yaml`);
      else env[source.name] = value;
      if (!source.ref!.optional) guaranteed.add(source.name);
      else guaranteed.delete(source.name);
    } else if (source.value !== undefined) {
      env[source.name] = source.value;
      guaranteed.add(source.name);
    }
  }
  return { env, guaranteed, problems };
}

/** Namespace annotation: how many PostgreSQL connections the overlay may use (its server's max_connections). */
const CONNECTION_BUDGET_ANNOTATION = 'courier.example.com/postgres-max-connections';
/** Connections of one migration Job (libs/persistence migrate-command: a pool of 2). */
const MIGRATION_JOB_CONNECTIONS = 2;

/**
 * PostgreSQL connections the render may open at once: each Deployment at its HPA maximum (or its
 * replica count) times the sum of its pools (DATABASE_POOL_SIZE and every other *_POOL_SIZE its
 * config class has, from the environment or the class default), plus each migration Job.
 */
function postgresConnections(objects: K8sObject[]): { total: number; lines: string[] } {
  const lines: string[] = [];
  let total = 0;
  for (const { owner, spec } of podTemplates(objects)) {
    const app = apps.find((candidate) => candidate.name === (owner.kind === 'Job' ? owner.metadata.name.replace(/-migrate$/, '') : owner.metadata.name));
    if (!app?.config) continue;
    const env = environmentOf(spec.containers[0], objects).env;
    if (!env.DATABASE_URL) continue;
    if (owner.kind === 'Job') {
      total += MIGRATION_JOB_CONNECTIONS;
      lines.push(`${owner.metadata.name}: ${MIGRATION_JOB_CONNECTIONS}`);
      continue;
    }
    const defaults = configDefaults(app.config);
    const pools = Object.keys(defaults)
      .filter((variable) => /(^|_)POOL_SIZE$/.test(variable))
      .map((variable) => Number(env[variable] ?? defaults[variable]));
    const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find((candidate) => candidate.spec.scaleTargetRef?.name === owner.metadata.name);
    const replicas = hpa?.spec.maxReplicas ?? owner.spec.replicas ?? 1;
    const perReplica = pools.reduce((sum, pool) => sum + pool, 0);
    total += replicas * perReplica;
    lines.push(`${owner.metadata.name}: ${replicas} x ${perReplica}`);
  }
  return { total, lines };
}

const dockerUser = effectiveImage(dockerfile, 'runtime').user ?? '';
const [dockerUid, dockerGid] = dockerUser.split(':').map(Number);

describe.each(RENDERS.map((dir) => [dir] as const))('kustomize render of %s', (dir) => {
  const objects = rendered[dir];

  it('renders objects that all validate against the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(20);
    const invalid = objects.map((object) => ({ object: `${object.kind}/${object.metadata.name}`, errors: schemaErrors(object) })).filter((entry) => entry.errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it('holds no Secret and no credential in plain text', () => {
    expect(ofKind(objects, 'Secret')).toEqual([]);
    const credentialLike = /PASSWORD|SECRET|TOKEN|API_KEY|_KEYS$|DATABASE_URL|RABBITMQ_URL|REDIS_URL/;
    const inConfigMaps = ofKind(objects, 'ConfigMap').flatMap((configMap) => Object.keys(configMap.data ?? {}).filter((key) => credentialLike.test(key)).map((key) => `${configMap.metadata.name}: ${key}`));
    const inValues = podTemplates(objects).flatMap(({ owner, spec }) =>
       
      spec.containers.flatMap((container: any) => (container.env ?? []).filter((entry: { name: string; value?: string }) => entry.value !== undefined && credentialLike.test(entry.name)).map((entry: { name: string }) => `${owner.metadata.name}: ${entry.name}`)),
    );
    expect([...inConfigMaps, ...inValues]).toEqual([]);
  });

  it('references only Secrets and keys that k8s/secret.example.yaml documents', () => {
    const missing: string[] = [];
    for (const { owner, spec } of podTemplates(objects)) {
      for (const container of spec.containers) {
        for (const entry of container.env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (ref && exampleSecretValue(ref.name, ref.key) === undefined) missing.push(`${owner.metadata.name}: ${ref.name}/${ref.key}`);
        }
      }
      for (const volume of spec.volumes ?? []) if (volume.secret && !named(exampleSecrets, 'Secret', volume.secret.secretName)) missing.push(`${owner.metadata.name}: volume ${volume.secret.secretName}`);
    }
    for (const ingress of ofKind(objects, 'Ingress')) {
      for (const tls of ingress.spec.tls ?? []) if (!named(exampleSecrets, 'Secret', tls.secretName)) missing.push(`${ingress.metadata.name}: tls ${tls.secretName}`);
    }
    expect(missing).toEqual([]);
  });

  it('labels every object as part of the suite', () => {
    const unlabelled = objects.filter((object) => object.kind !== 'Namespace' && object.metadata.labels?.['app.kubernetes.io/part-of'] !== 'courier');
    expect(unlabelled.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual([]);
  });

  if (dir in OVERLAY_NAMESPACES) {
    it('puts everything in its namespace, which enforces the restricted Pod Security Standard', () => {
      const namespace = OVERLAY_NAMESPACES[dir];
      const elsewhere = objects.filter((object) => object.kind !== 'Namespace' && object.metadata.namespace !== namespace);
      expect(elsewhere.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual([]);
      expect(named(objects, 'Namespace', namespace)?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    });
  }

  it(`deploys exactly the apps it should (${appsIn(dir).map((app) => app.name).join(', ')})`, () => {
    const deployed = ofKind(objects, 'Deployment').map((deployment) => deployment.metadata.name).sort();
    expect(deployed).toEqual(appsIn(dir).map((app) => app.name).sort());
  });

  describe.each(appsIn(dir).map((app) => [app.name, app] as const))('%s', (name, app) => {
    const deployment = () => named(objects, 'Deployment', name)!;
    const pod = () => deployment().spec.template.spec;
    const container = () => pod().containers.find((candidate: { name: string }) => candidate.name === name);
    const port = () => portVariable(app.config!);
    const environment = () => environmentOf(container(), objects);
    const podLabels = () => deployment().spec.template.metadata.labels;
    const otherPods = () => podTemplates(objects).filter((template) => template.owner !== deployment());

    it('runs the image of the app, with its own entry point (no command or args override)', () => {
      const image: string = container().image;
      expect(image).toMatch(new RegExp(`(^|/)courier/${name}(:[\\w.-]+)?(@sha256:[0-9a-f]{64})?$`));
      if (dir === 'k8s/overlays/prod') expect(image).toMatch(/:(?!latest$)[\w.-]+$|@sha256:/);
      expect(container().command).toBeUndefined();
      expect(container().args).toBeUndefined();
    });

    it("listens on the port its config sets, the one the image exposes", () => {
      const listening = Number(environment().env[port().name] ?? port().defaultPort);
      expect(container().ports).toEqual([{ name: 'http', containerPort: listening, protocol: 'TCP' }]);
      expect(effectiveImage(dockerfile, name).exposed).toEqual([String(listening)]);
    });

    it('gets every variable the app requires (derived from its config class), and the app accepts the environment', () => {
      const { env, guaranteed, problems } = environment();
      expect(problems).toEqual([]);
      expect(requiredVariables(app.config!).filter((variable) => !guaranteed.has(variable))).toEqual([]);
      expect(configProblems(app.config!, env)).toEqual([]);
    });

    if (dir === 'k8s/overlays/prod') {
      it('gets every setting a production deployment needs (@RequiredInProduction: the platforms\' keys and secrets), from a Secret that must exist', () => {
        const { guaranteed } = environment();
        expect(productionVariables(app.config!).filter((variable) => !guaranteed.has(variable))).toEqual([]);
      });
    }

    it('gets only variables the app reads (catches misspelt keys)', () => {
      const accepted = acceptedVariables(name, app.config!);
      expect(Object.keys(environment().env).filter((variable) => !accepted.has(variable))).toEqual([]);
    });

    it('has resources, liveness on /health and readiness on /health/ready at the http port', () => {
      const { requests, limits } = container().resources ?? {};
      expect(requests?.cpu && requests?.memory && limits?.memory).toBeTruthy();
      expect(container().livenessProbe?.httpGet?.path).toBe('/health');
      expect(container().readinessProbe?.httpGet?.path).toBe('/health/ready');
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (!container()[probe]) continue;
        expect({ probe, port: containerPort(container(), container()[probe].httpGet.port) }).toEqual({ probe, port: container().ports[0].containerPort });
      }
    });

    it('drains before stopping: a preStop delay, then a grace period that covers the in-flight work', () => {
      const preStop: string[] = container().lifecycle?.preStop?.exec?.command ?? [];
      expect(preStop[0]).toBe('/bin/sleep');
      const preStopSeconds = Number(preStop[1]);
      expect(preStopSeconds).toBeGreaterThanOrEqual(3);
      const graceMs = Number(environment().env.SHUTDOWN_GRACE_MS ?? configDefaults(app.config!).SHUTDOWN_GRACE_MS ?? 10_000);
      expect(pod().terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStopSeconds + graceMs / 1000 + 5);
    });

    it("runs as the image's non-root user, read-only, without privileges", () => {
      expect(pod().securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: dockerUid, runAsGroup: dockerGid, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod().automountServiceAccountToken).toBe(false);
      expect(container().securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    });

    it('has a Service that selects its pods only and targets its http port', () => {
      const service = named(objects, 'Service', name)!;
      expect(service).toBeDefined();
      expect(serviceSelects(service.spec.selector, podLabels())).toBe(true);
      expect(otherPods().filter((template) => serviceSelects(service.spec.selector, template.labels)).map((template) => template.owner.metadata.name)).toEqual([]);
      for (const servicePort of service.spec.ports) expect(containerPort(container(), servicePort.targetPort)).toBe(container().ports[0].containerPort);
    });

    if (name in NOT_AUTOSCALED) {
      it(`runs one replica, replaced not rolled (${NOT_AUTOSCALED[name]})`, () => {
        expect(deployment().spec.replicas).toBe(1);
        expect(deployment().spec.strategy.type).toBe('Recreate');
        expect(named(objects, 'HorizontalPodAutoscaler', name)).toBeUndefined();
      });
    } else {
      it('is scaled by a HorizontalPodAutoscaler on CPU (and sets no replica count itself)', () => {
        const hpa = named(objects, 'HorizontalPodAutoscaler', name)!;
        expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
        expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
        expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
        if (dir !== 'k8s/overlays/dev') expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
        expect(hpa.spec.metrics.some((metric: { resource?: { name: string } }) => metric.resource?.name === 'cpu')).toBe(true);
        expect(container().resources.requests.cpu).toBeDefined();
        expect(deployment().spec.replicas).toBeUndefined();
        expect(deployment().spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      });

      it('has a PodDisruptionBudget over its pods only', () => {
        const pdb = named(objects, 'PodDisruptionBudget', name)!;
        expect(pdb).toBeDefined();
        expect(selects(pdb.spec.selector, podLabels())).toBe(true);
        expect(otherPods().filter((template) => selects(pdb.spec.selector, template.labels)).map((template) => template.owner.metadata.name)).toEqual([]);
        expect(pdb.spec.maxUnavailable ?? pdb.spec.minAvailable).toBeDefined();
      });
    }

    if (app.hasMigrations) {
      const job = () => named(objects, 'Job', `${name}-migrate`)!;

      it('leaves migrations to its Job (MIGRATIONS_RUN=false)', () => {
        expect(environment().env.MIGRATIONS_RUN).toBe('false');
      });

      it('has a migration Job: same image and environment, tini kept, runs once', () => {
        expect(job()).toBeDefined();
        const jobContainer = job().spec.template.spec.containers[0];
        expect(jobContainer.image).toBe(container().image);
        expect(jobContainer.command).toBeUndefined();
        expect(jobContainer.args).toEqual(['node', `dist/apps/${name}/src/migrate.js`]);
        expect(jobContainer.envFrom).toEqual(container().envFrom);
        expect(jobContainer.env).toEqual(container().env);
        expect(job().spec.template.spec.restartPolicy).toBe('Never');
        expect(job().spec.backoffLimit).toBeGreaterThanOrEqual(1);
        expect(job().spec.activeDeadlineSeconds).toBeGreaterThan(0);
        expect(job().spec.template.spec.securityContext).toEqual(pod().securityContext);
        expect(jobContainer.securityContext).toEqual(container().securityContext);
        expect(jobContainer.resources?.limits?.memory).toBeDefined();
      });

      const migrateSource = sourceOfBuildOutput(`dist/apps/${name}/src/migrate.js`);
      it("runs a migration command that the app's sources provide", () => expect(existsSync(workspacePath(migrateSource))).toBe(true));
    }
  });

  if (dir in OVERLAY_NAMESPACES) {
    it('stays within the PostgreSQL connection budget its namespace declares, at every HPA maximum', () => {
      const budget = Number(named(objects, 'Namespace', OVERLAY_NAMESPACES[dir])?.metadata.annotations?.[CONNECTION_BUDGET_ANNOTATION]);
      expect(budget).toBeGreaterThan(0);
      const { total, lines } = postgresConnections(objects);
      // 10 % stays free for operators' sessions, backups and a migration run by hand.
      const counted = lines.map((line) => line.split(':')[0]).sort();
      const databaseApps = ['intake-api', 'integrations-api', 'status-dispatcher', 'webhook-sender'];
      expect(counted).toEqual([...databaseApps, ...databaseApps.map((app) => `${app}-migrate`)].sort());
      expect(total).toBeLessThanOrEqual(Math.floor(budget * 0.9));
    });

    it('counts a raised HPA maximum or pool size against that budget', () => {
      const before = postgresConnections(objects).total;
      const scaled = structuredClone(objects);
      named(scaled, 'HorizontalPodAutoscaler', 'intake-api')!.spec.maxReplicas += 5;
      const intakeConfig = named(scaled, 'ConfigMap', named(scaled, 'Deployment', 'intake-api')!.spec.template.spec.containers[0].envFrom[0].configMapRef.name)!;
      intakeConfig.data.DATABASE_POOL_SIZE = String(Number(intakeConfig.data.DATABASE_POOL_SIZE) + 1);
      const hpa = named(objects, 'HorizontalPodAutoscaler', 'intake-api')!.spec.maxReplicas;
      const pool = Number(named(objects, 'ConfigMap', intakeConfig.metadata.name)!.data.DATABASE_POOL_SIZE);
      expect(postgresConnections(scaled).total - before).toBe((hpa + 5) * (pool + 1) - hpa * pool);
    });
  }

  describe('Ingress', () => {
    const ingresses = () => ofKind(objects, 'Ingress');
    const publicIngress = () => named(objects, 'Ingress', 'courier-public')!;
    const hosts = () => {
      const intake = publicIngress().spec.rules.find((rule: { http: { paths: { path: string }[] } }) => rule.http.paths.some((entry) => entry.path === '/webhook/third-party/order'))?.host;
      const all: string[] = publicIngress().spec.rules.map((rule: { host: string }) => rule.host);
      return { intake, pos: all.find((host) => host !== intake), all };
    };

    it('has two hosts, {base_url} and {pos_url}, and only backends that exist', () => {
      expect(new Set(hosts().all).size).toBe(2);
      for (const ingress of ingresses()) {
        for (const rule of ingress.spec.rules) {
          for (const entry of rule.http.paths) {
            const service = named(objects, 'Service', entry.backend.service.name);
            expect({ backend: entry.backend.service.name, exists: service !== undefined }).toEqual({ backend: entry.backend.service.name, exists: true });
            const portName = entry.backend.service.port.name;
            expect(service!.spec.ports.some((servicePort: { name: string; port: number }) => servicePort.name === portName || servicePort.port === entry.backend.service.port.number)).toBe(true);
          }
        }
      }
    });

    it.each(PUBLIC_ROUTES.map((route) => [route.host, route.path, route.service] as const))('routes %s %s to %s', (host, requestPath, service) => {
      expect(routeRequest(ingresses(), hosts()[host]!, requestPath)?.service).toBe(service);
    });

    it('exposes no admin, internal, health, metrics or docs path, on any host', () => {
      const exposed = hosts().all.flatMap((host) => NOT_PUBLIC.filter((requestPath) => routeRequest(ingresses(), host, requestPath)).map((requestPath) => `${host}${requestPath}`));
      expect(exposed).toEqual([]);
      const wrongHost = PUBLIC_ROUTES.filter((route) => routeRequest(ingresses(), route.host === 'intake' ? hosts().pos! : hosts().intake!, route.path));
      expect(wrongHost).toEqual([]);
    });

    it('sends only {pos_url}/platforms (the platforms\' webhooks), the availability and the catalog paths to status-dispatcher, never /internal', () => {
      const toDispatcher = ingresses().flatMap((ingress) =>
        ingress.spec.rules.flatMap((rule: { host: string; http: { paths: { path: string; backend: { service: { name: string } } }[] } }) =>
          rule.http.paths.filter((entry) => entry.backend.service.name === 'status-dispatcher').map((entry) => entry.path),
        ),
      );
      expect(toDispatcher.sort()).toEqual(['/api/v1/my/availability', '/api/v1/my/catalog', '/api/v1/my/integrations/[^/]+/catalog(/|$)', '/api/v1/my/integrations/[^/]+/products(/|$)', '/platforms']);
      expect(routeRequest([publicIngress()], hosts().pos!, '/platforms/platform-d/orders')?.service).toBe('status-dispatcher');
      expect(routeRequest([publicIngress()], hosts().intake!, '/platforms/platform-d/orders')).toBeUndefined();
    });

    if (dir === 'k8s/overlays/prod') {
      it('serves every public host over TLS', () => {
        const covered = (publicIngress().spec.tls ?? []).flatMap((tls: { hosts: string[] }) => tls.hosts);
        expect(hosts().all.filter((host) => !covered.includes(host))).toEqual([]);
      });
    }
  });

  describe('NetworkPolicies', () => {
    const policies = () => ofKind(objects, 'NetworkPolicy');
    const templates = () => podTemplates(objects);

    /** Whether some policy admits a peer (pods with these labels, in a namespace with these labels) to a pod on a port. */
    function admitted(target: { labels: Record<string, string>; port: number; portName: string }, peer: { namespace: Record<string, string> | 'same'; labels: Record<string, string> }): boolean {
      return policies().some((policy) => {
        if (!selects(policy.spec.podSelector, target.labels) || !(policy.spec.policyTypes ?? ['Ingress']).includes('Ingress')) return false;
        return (policy.spec.ingress ?? []).some((rule: { from?: { podSelector?: LabelSelector; namespaceSelector?: LabelSelector }[]; ports?: { port: string | number }[] }) => {
          const portAllowed = !rule.ports || rule.ports.some((entry) => entry.port === target.port || entry.port === target.portName);
          const peerAllowed =
            !rule.from ||
            rule.from.some((from) => {
              if (from.namespaceSelector === undefined) return peer.namespace === 'same' && selects(from.podSelector, peer.labels);
              // The suite's own namespace carries no labels the policies rely on: only {} selects it.
              const namespaceMatches = peer.namespace === 'same' ? Object.keys(from.namespaceSelector).length === 0 : selects(from.namespaceSelector, peer.namespace);
              return namespaceMatches && (from.podSelector === undefined || selects(from.podSelector, peer.labels));
            });
          return portAllowed && peerAllowed;
        });
      });
    }

    const serverOf = (app: string) => {
      const deployment = named(objects, 'Deployment', app);
      return deployment && { labels: deployment.spec.template.metadata.labels, port: deployment.spec.template.spec.containers[0].ports[0].containerPort, portName: 'http' };
    };
    const fromIngressController = { namespace: { 'kubernetes.io/metadata.name': INGRESS_CONTROLLER_NAMESPACE }, labels: {} };

    it('deny all ingress by default', () => {
      const defaultDeny = policies().filter((policy) => Object.keys(policy.spec.podSelector).length === 0 && policy.spec.policyTypes.includes('Ingress') && !policy.spec.ingress);
      expect(defaultDeny).toHaveLength(1);
    });

    it('select existing pods and name ports those pods have', () => {
      for (const policy of policies()) {
        const selected = templates().filter((template) => selects(policy.spec.podSelector, template.labels));
        expect({ policy: policy.metadata.name, selectsPods: selected.length > 0 }).toEqual({ policy: policy.metadata.name, selectsPods: true });
        const portNames = (policy.spec.ingress ?? []).flatMap((rule: { ports?: { port: string | number }[] }) => (rule.ports ?? []).map((entry) => entry.port)).filter((port: string | number) => typeof port === 'string');
        for (const portName of portNames) {
           
          const present = selected.some((template) => template.spec.containers.some((c: any) => (c.ports ?? []).some((p: { name?: string }) => p.name === portName)));
          expect({ policy: policy.metadata.name, portName, present }).toEqual({ policy: policy.metadata.name, portName, present: true });
        }
      }
    });

    it('let the ingress controller reach every app behind an Ingress, and no other app', () => {
      const behindIngress = new Set(ofKind(objects, 'Ingress').flatMap((ingress) => ingress.spec.rules.flatMap((rule: { http: { paths: { backend: { service: { name: string } } }[] } }) => rule.http.paths.map((entry) => entry.backend.service.name))));
      for (const app of appsIn(dir)) {
        const expected = behindIngress.has(app.name);
        expect({ app: app.name, admitted: admitted(serverOf(app.name)!, fromIngressController) }).toEqual({ app: app.name, admitted: expected });
      }
      // status-dispatcher is behind it for {pos_url}/platforms/ only (the route table above; /internal stays unexposed).
      expect(behindIngress.has('status-dispatcher')).toBe(true);
    });


    it('let pods of the namespace reach status-dispatcher (internal status push through its ClusterIP Service)', () => {
      expect(admitted(serverOf('status-dispatcher')!, { namespace: 'same', labels: { 'app.kubernetes.io/name': 'some-internal-caller' } })).toBe(true);
    });

    if (dir === 'k8s/overlays/dev') {
      it('let webhook-sender reach the receiver, and the receiver reach intake-api', () => {
        expect(admitted(serverOf('mock-receiver')!, { namespace: 'same', labels: serverOf('webhook-sender')!.labels })).toBe(true);
        expect(admitted(serverOf('intake-api')!, { namespace: 'same', labels: serverOf('mock-receiver')!.labels })).toBe(true);
        expect(admitted(serverOf('integrations-api')!, { namespace: 'same', labels: serverOf('mock-receiver')!.labels })).toBe(false);
      });
    }

    it('keep every pod away from the cloud metadata endpoint', () => {
      const egress = policies().filter((policy) => Object.keys(policy.spec.podSelector).length === 0 && policy.spec.policyTypes.includes('Egress'));
      expect(egress).toHaveLength(1);
      const blocks = egress[0].spec.egress.flatMap((rule: { to?: { ipBlock?: { cidr: string; except?: string[] } }[] }) => (rule.to ?? []).map((to) => to.ipBlock).filter(Boolean));
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) expect(block.except ?? []).toEqual(expect.arrayContaining([expect.stringMatching(/^169\.254\.169\.254\/32$|^fd00:ec2::254\/128$/)]));
    });
  });
});

describe('k8s/ sources', () => {
  const kustomizations = (function list(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? list(path.join(dir, entry.name)) : entry.name === 'kustomization.yaml' ? [path.join(dir, entry.name)] : [],
    );
  })(workspacePath('k8s'));

  it('never include secret.example.yaml in a kustomization', () => {
    expect(kustomizations.length).toBeGreaterThanOrEqual(4);
    for (const file of kustomizations) expect({ file, includesExample: readFileSync(file, 'utf8').includes('secret.example') }).toEqual({ file, includesExample: false });
  });

  it('document in secret.example.yaml only Secrets that some render references, with placeholder values', () => {
    const referenced = new Set<string>();
    for (const objects of Object.values(rendered)) {
      for (const { spec } of podTemplates(objects)) {
        for (const container of spec.containers) {
          for (const entry of container.env ?? []) if (entry.valueFrom?.secretKeyRef) referenced.add(`${entry.valueFrom.secretKeyRef.name}/${entry.valueFrom.secretKeyRef.key}`);
        }
      }
      for (const ingress of ofKind(objects, 'Ingress')) for (const tls of ingress.spec.tls ?? []) referenced.add(`${tls.secretName}/tls.crt`).add(`${tls.secretName}/tls.key`);
    }
    const documented = exampleSecrets.flatMap((secret) => Object.keys(secret.stringData ?? {}).map((key) => `${secret.metadata.name}/${key}`));
    expect(documented.filter((entry) => !referenced.has(entry))).toEqual([]);
    for (const secret of exampleSecrets) {
      for (const [key, value] of Object.entries<string>(secret.stringData ?? {})) expect({ key, placeholder: /EXAMPLE/i.test(value) }).toEqual({ key, placeholder: true });
    }
  });
});

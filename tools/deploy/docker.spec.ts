/**
 * docker/Dockerfile and docker/docker-compose.yml, read as files (no Docker engine runs here): the
 * base image is pinned, images run as a non-root user under tini, entry points are files the build
 * produces, every variable an app requires is set (derived from its config class), ports agree.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { URL } from 'node:url';
import {
  baseImage,
  effectiveImage,
  findStage,
  healthcheckCommand,
  isIgnored,
  parseAssignments,
  parseCopy,
  parseDockerfile,
  stageChain,
} from './dockerfile';
import { MigrationConfig } from '@courier/config';
import { readCompose, serviceEnvironment, servicePorts } from './compose';
import {
  acceptedVariables,
  configDefaults,
  configProblems,
  configVariables,
  deployables,
  portVariable,
  requiredVariables,
  sourceOfBuildOutput,
  workspacePath,
} from './deployables';

const dockerfile = parseDockerfile(readFileSync(workspacePath('docker/Dockerfile'), 'utf8'));
const dockerignore = readFileSync(workspacePath('docker/Dockerfile.dockerignore'), 'utf8').split('\n');
const compose = readCompose(readFileSync(workspacePath('docker/docker-compose.yml'), 'utf8'));
const apps = deployables();
const migratingApps = apps.filter((app) => app.hasMigrations);
const MIGRATIONS_TARGET = 'migrations';
const MIGRATE_SERVICE = 'migrate';
const DIGEST = /@sha256:[0-9a-f]{64}$/;

function execWords(instructionText: string | undefined, exec: string[] | undefined): string[] {
  if (!exec) throw new Error(`not in exec form: ${instructionText}`);
  return exec;
}

describe('the deployable apps (from apps/*/project.json, tag type:app)', () => {
  it('are found, each with a config class', () => {
    expect(apps.map((app) => app.name)).toEqual(
      expect.arrayContaining(['intake-api', 'integrations-api', 'status-dispatcher', 'webhook-sender', 'mock-receiver']),
    );
    for (const app of apps) expect({ app: app.name, hasConfig: app.config !== undefined }).toEqual({ app: app.name, hasConfig: true });
  });
});

describe('docker/Dockerfile', () => {
  const externalBases = [...new Set(dockerfile.stages.map((stage) => baseImage(dockerfile, stage.name ?? '')).filter(Boolean))];

  it('starts every stage from one base image, pinned by version tag and digest', () => {
    expect(externalBases).toHaveLength(1);
    expect(externalBases[0]).toMatch(/^node:\d+\.\d+\.\d+-bookworm-slim@sha256:[0-9a-f]{64}$/);
    expect(externalBases[0]).toMatch(DIGEST);
  });

  it('runs a Node LTS line that package.json engines admits, the newest of them', () => {
    const engines = (JSON.parse(readFileSync(workspacePath('package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const admitted = [...engines.matchAll(/\^(\d+)\.\d+\.\d+/g)].map((match) => Number(match[1]));
    const imageMajor = Number(/^node:(\d+)\./.exec(externalBases[0])?.[1]);
    expect(admitted.length).toBeGreaterThan(0);
    expect(imageMajor).toBe(Math.max(...admitted));
    // Even majors are the LTS lines; 20 reached end of life on 2026-04-30.
    expect(imageMajor % 2).toBe(0);
    expect(imageMajor).toBeGreaterThanOrEqual(22);
  });

  it('installs dependencies with npm ci only, production dependencies only in the runtime images', () => {
    const runs = dockerfile.stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => ({ stage: stage.name, text: i.text })));
    expect(runs.filter((run) => /\bnpm (install|i)\b/.test(run.text))).toEqual([]);
    const runtime = stageChain(dockerfile, 'runtime');
    const nodeModulesCopies = runtime
      .flatMap((stage) => stage.instructions)
      .filter((i) => i.keyword === 'COPY' && /node_modules/.test(i.text))
      .map(parseCopy);
    expect(nodeModulesCopies).toHaveLength(1);
    const source = findStage(dockerfile, nodeModulesCopies[0].options.from);
    const install = source?.instructions.find((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.text));
    expect(install?.text).toMatch(/npm ci\b.*--omit=dev/);
  });

  it('compiles with the workspace build (node tools/build.mjs) in the build stage', () => {
    const build = findStage(dockerfile, 'build');
    expect(build?.instructions.some((i) => i.keyword === 'RUN' && /^node tools\/build\.mjs\s*$/.test(i.text))).toBe(true);
  });

  it('gives the build stage every file tools/build.mjs loads', () => {
    const build = findStage(dockerfile, 'build')!;
    const copied = build.instructions.filter((i) => i.keyword === 'COPY').map(parseCopy).flatMap((copy) => copy.sources);
    const isCopied = (file: string) => copied.some((source) => file === source || file.startsWith(`${source.replace(/\/$/, '')}/`));
    const pending = ['tools/build.mjs'];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      expect({ file, copied: isCopied(file) }).toEqual({ file, copied: true });
      const source = readFileSync(workspacePath(file), 'utf8');
      for (const match of source.matchAll(/(?:require\(|from\s+)(['"])(\.{1,2}\/[^'"]+)\1/g)) {
        pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), match[2])));
      }
    }
    expect([...seen]).toEqual(expect.arrayContaining(['tools/build.mjs', 'tools/swc-options.cjs', 'tsconfig.base.json']));
  });

  it('copies from the build context only files that exist and that the dockerignore lets through', () => {
    const copies = dockerfile.stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD'));
    expect(copies.filter((i) => i.keyword === 'ADD')).toEqual([]);
    const fromContext = copies.map(parseCopy).filter((copy) => copy.options.from === undefined);
    expect(fromContext.length).toBeGreaterThan(0);
    for (const copy of fromContext) {
      for (const source of copy.sources) {
        expect({ source, exists: existsSync(workspacePath(source)) }).toEqual({ source, exists: true });
        expect({ source, ignored: isIgnored(source, dockerignore) }).toEqual({ source, ignored: false });
      }
    }
    // and the context stays small: no node_modules, no build output, no tests
    for (const excluded of ['node_modules/x/index.js', 'dist/apps/intake-api/src/main.js', 'apps/intake-api/src/app/x.spec.ts', '.git/HEAD', 'k8s/secret.example.yaml']) {
      expect({ excluded, ignored: isIgnored(excluded, dockerignore) }).toEqual({ excluded, ignored: true });
    }
  });

  it('keeps secrets out of the image (no ENV or ARG named like a credential)', () => {
    const names = [
      ...Object.keys(dockerfile.globalArgs),
      ...dockerfile.stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG').flatMap((i) => Object.keys(parseAssignments(i.text)))),
    ];
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => /PASSWORD|SECRET|TOKEN|API_KEY|_KEYS$|DATABASE_URL|RABBITMQ_URL/.test(name))).toEqual([]);
  });

  it('runs as a numeric non-root user under tini with a HEALTHCHECK in exec form (runtime stage)', () => {
    const runtime = effectiveImage(dockerfile, 'runtime');
    expect(runtime.user).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    expect(runtime.entrypoint?.exec).toEqual(['/usr/bin/tini', '--']);
    expect(runtime.env.NODE_ENV).toBe('production');
    const healthcheck = healthcheckCommand(runtime.healthcheck!);
    expect(healthcheck).toEqual(['node', '/app/healthcheck.js']);
    const copied = runtime.instructions.filter((i) => i.keyword === 'COPY').map(parseCopy);
    expect(copied.some((copy) => copy.sources.includes('docker/healthcheck.js') && `${runtime.workdir}/${copy.destination.replace(/^\.\//, '')}` === '/app/healthcheck.js')).toBe(true);
  });

  describe.each(apps.map((app) => [app.name, app] as const))('target %s', (name, app) => {
    const image = () => effectiveImage(dockerfile, name);

    it('exists and inherits the runtime stage (user, tini, healthcheck)', () => {
      expect(findStage(dockerfile, name)).toBeDefined();
      expect(stageChain(dockerfile, name).map((stage) => stage.name)).toContain('runtime');
      expect(image().user).toBe(effectiveImage(dockerfile, 'runtime').user);
      expect(image().entrypoint?.exec).toEqual(['/usr/bin/tini', '--']);
      expect(healthcheckCommand(image().healthcheck!)).not.toBe('NONE');
    });

    it('starts node on dist/apps/<app>/src/main.js in exec form, copied from the build stage', () => {
      const cmd = execWords(image().cmd?.text, image().cmd?.exec);
      expect(cmd).toEqual(['node', `dist/apps/${name}/src/main.js`]);
      const copies = image().instructions.filter((i) => i.keyword === 'COPY').map(parseCopy).filter((copy) => copy.options.from === 'build');
      expect(copies.map((copy) => copy.sources[0])).toEqual(expect.arrayContaining([`/src/dist/apps/${name}`, '/src/dist/libs']));
    });

    it('its entry point is a source file the build compiles', () => {
      expect(sourceOfBuildOutput(`dist/apps/${name}/src/main.js`)).toBe(`apps/${name}/src/main.ts`);
      expect(existsSync(workspacePath('apps', name, 'src', 'main.ts'))).toBe(true);
    });

    it("checks health on the app's own port variable and exposes the app's default port", () => {
      const port = portVariable(app.config!);
      expect(image().env.HEALTHCHECK_PORT_VARIABLE).toBe(port.name);
      expect(Number(image().env.HEALTHCHECK_DEFAULT_PORT)).toBe(port.defaultPort);
      expect(image().exposed).toEqual([String(port.defaultPort)]);
    });

    it('sets in the image only variables the app reads (if any)', () => {
      const accepted = acceptedVariables(name, app.config!);
      const own = Object.keys(image().env).filter((variable) => !Object.keys(effectiveImage(dockerfile, 'runtime').env).includes(variable) && !variable.startsWith('HEALTHCHECK_'));
      expect(own.filter((variable) => !accepted.has(variable))).toEqual([]);
      // Values the image sets must be valid (problems about other variables are not the image's).
      const problems = configProblems(app.config!, image().env).filter((problem) => own.includes(problem.split(/[\s:]/)[0]));
      expect(problems).toEqual([]);
    });
  });

  it(`has a ${MIGRATIONS_TARGET} target that runs every app's migrate.js`, () => {
    const image = effectiveImage(dockerfile, MIGRATIONS_TARGET);
    expect(image.cmd?.exec).toEqual(['node', 'run-migrations.js']);
    expect(healthcheckCommand(image.healthcheck!)).toBe('NONE');
    const copies = image.instructions.filter((i) => i.keyword === 'COPY').map(parseCopy);
    expect(copies.some((copy) => copy.options.from === 'build' && copy.sources[0] === '/src/dist/apps')).toBe(true);
    expect(copies.some((copy) => copy.sources.includes('docker/run-migrations.js'))).toBe(true);
  });
});

describe('docker/docker-compose.yml', () => {
  const services = compose.services;

  it('has PostgreSQL, RabbitMQ with the management plugin, the migration service and every app', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'rabbitmq', MIGRATE_SERVICE, ...apps.map((app) => app.name)]));
    expect(services.postgres.image).toMatch(/^postgres:\d+\.\d+(\.\d+)?-/);
    expect(services.rabbitmq.image).toMatch(/^rabbitmq:\d+\.\d+\.\d+-management/);
  });

  it('pins every image it pulls to an exact version (no latest)', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build) continue;
      expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/^[a-z0-9./-]+:\d+\.\d+[^:]*$|@sha256:[0-9a-f]{64}$/) });
    }
  });

  it('builds its services from targets of docker/Dockerfile', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) continue;
      expect({ name, context: service.build.context, dockerfile: service.build.dockerfile }).toEqual({ name, context: '..', dockerfile: 'docker/Dockerfile' });
      expect({ name, target: findStage(dockerfile, service.build.target)?.name }).toEqual({ name, target: service.build.target });
    }
  });

  it('waits on health checks that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries<{ condition: string }>(service.depends_on ?? {})) {
        expect({ name, dependency, known: dependency in services }).toEqual({ name, dependency, known: true });
        if (condition.condition !== 'service_healthy') continue;
        const target = services[dependency];
        const hasCheck = target.healthcheck !== undefined || (target.build && healthcheckCommand(effectiveImage(dockerfile, target.build.target).healthcheck!) !== 'NONE');
        expect({ name, dependency, hasCheck }).toEqual({ name, dependency, hasCheck: true });
      }
    }
  });

  it('points DATABASE_URL and RABBITMQ_URL at its own PostgreSQL and RabbitMQ, with their credentials', () => {
    const pg = serviceEnvironment(services.postgres);
    const mq = serviceEnvironment(services.rabbitmq);
    const withDatabase = Object.entries(services).filter(([, service]) => serviceEnvironment(service).DATABASE_URL !== undefined);
    expect(withDatabase.length).toBe(migratingApps.length + 1);
    for (const [name, service] of withDatabase) {
      const env = serviceEnvironment(service);
      const database = new URL(env.DATABASE_URL);
      expect({ name, host: database.hostname, port: database.port, user: database.username, password: database.password, db: database.pathname }).toEqual({
        name,
        host: 'postgres',
        port: '5432',
        user: pg.POSTGRES_USER,
        password: pg.POSTGRES_PASSWORD,
        db: `/${pg.POSTGRES_DB}`,
      });
      if (name === MIGRATE_SERVICE) continue; // migrating needs no broker
      const broker = new URL(env.RABBITMQ_URL);
      expect({ name, host: broker.hostname, user: broker.username, password: broker.password }).toEqual({
        name,
        host: 'rabbitmq',
        user: mq.RABBITMQ_DEFAULT_USER,
        password: mq.RABBITMQ_DEFAULT_PASS,
      });
    }
  });

  describe.each(apps.map((app) => [app.name, app] as const))('service %s', (name, app) => {
    const service = () => services[name];
    const env = () => serviceEnvironment(service());

    it('is built from the target of the same name', () => {
      expect(service().build.target).toBe(name);
    });

    it('sets every variable the app requires (derived from its config class), and the app accepts the environment', () => {
      const missing = requiredVariables(app.config!).filter((variable) => !env()[variable]);
      expect(missing).toEqual([]);
      expect(configProblems(app.config!, env())).toEqual([]);
    });

    it('sets only variables the app reads', () => {
      const accepted = acceptedVariables(name, app.config!);
      expect(Object.keys(env()).filter((variable) => !accepted.has(variable))).toEqual([]);
    });

    it('publishes the port the app listens on, on the same host port', () => {
      const port = portVariable(app.config!);
      const listening = Number(env()[port.name] ?? port.defaultPort);
      expect(servicePorts(service())).toEqual([{ container: listening, host: listening, hostIp: undefined }]);
      expect(listening).toBe(port.defaultPort);
    });

    it('runs read-only, without capabilities, and stops later than the app finishes in-flight work', () => {
      expect(service().read_only).toBe(true);
      expect(service().cap_drop).toEqual(['ALL']);
      const graceMs = Number(env().SHUTDOWN_GRACE_MS ?? configDefaults(app.config!).SHUTDOWN_GRACE_MS ?? 0);
      const stopSeconds = Number(/^(\d+)s$/.exec(service().stop_grace_period ?? '10s')?.[1]);
      expect(stopSeconds).toBeGreaterThanOrEqual(graceMs / 1000 + 5);
    });

    if (app.hasMigrations) {
      it('starts after the migration service succeeded, and does not migrate itself', () => {
        expect(service().depends_on?.[MIGRATE_SERVICE]).toEqual({ condition: 'service_completed_successfully' });
        expect(env().MIGRATIONS_RUN).toBe('false');
      });
    }
  });

  it('runs the migrations once, before the apps, with only what migrating requires (no keys or tokens)', () => {
    const migrate = services[MIGRATE_SERVICE];
    expect(migrate.build.target).toBe(MIGRATIONS_TARGET);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    const env = serviceEnvironment(migrate);
    const accepted = new Set(migratingApps.flatMap((app) => [...acceptedVariables(app.name, app.config!)]));
    expect(Object.keys(env).filter((variable) => !accepted.has(variable))).toEqual([]);
    expect(configProblems(MigrationConfig, env)).toEqual([]);
    expect(Object.keys(env).filter((variable) => !configVariables(MigrationConfig).includes(variable))).toEqual([]);
  });

  it('points the receiver at the intake app inside the compose network', () => {
    const receiver = serviceEnvironment(services['mock-receiver']);
    const intake = apps.find((app) => app.name === 'intake-api')!;
    const intakePort = portVariable(intake.config!).defaultPort;
    expect(receiver.SERVICE_API_URL).toBe(`http://intake-api:${intakePort}`);
    expect(receiver.RECEIVER_DATA_FILE?.startsWith('/var/lib/courier/')).toBe(true);
    expect(services['mock-receiver'].volumes).toEqual(['receiver-data:/var/lib/courier']);
  });
});

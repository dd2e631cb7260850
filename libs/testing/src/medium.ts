import { DynamicModule, Global, InjectionToken, Module, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Test, TestingModule } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfigModule, BaseConfig } from '@courier/config';
import { TaskOutcome, taskKindOf, Outbox, UnitOfWork } from '@courier/messaging';
import { appDataSourceOptions, PersistenceSettings, runMigrationsLocked } from '@courier/persistence';
import { createTestDatabase, TestDatabase } from './test-database';

/**
 * The middle test tier (`*.medium-spec.ts`): an app's services with their real repositories on a
 * fresh PostgreSQL database of their own, migrated, and nothing else of the app: no HTTP server, no
 * broker, no relay or task runner loop, no simulators. Any dependency the test does not provide is a
 * recording stand-in (`MediumContext.calls`), so a test names only what it exercises.
 */

/** One medium test file's database: the app's schema, migrated, and a TypeORM DataSource on it. */
export interface MediumDatabase {
  database: TestDatabase;
  dataSource: DataSource;
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Closes the DataSource and drops the database. */
  close(): Promise<void>;
}

/** A fresh database for one test file with the app's migrations run (the app's own PersistenceSettings). */
export async function createMediumDatabase(prefix: string, persistence: PersistenceSettings): Promise<MediumDatabase> {
  const database = await createTestDatabase(`${prefix}_medium`);
  const dataSource = new DataSource(appDataSourceOptions({ ...persistence, url: database.url, poolSize: 4, applicationName: `${persistence.schema}-medium` }));
  try {
    await dataSource.initialize();
    await runMigrationsLocked(dataSource, persistence.schema);
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
    throw error;
  }
  return {
    database,
    dataSource,
    sql: async <T>(text: string, params: unknown[] = []) => (await dataSource.query(text, params)) as T[],
    close: async () => {
      try {
        if (dataSource.isInitialized) await dataSource.destroy();
      } finally {
        await database.drop();
      }
    },
  };
}

/** A call made to a stand-in: the property path (`tasks.nudge`) and its arguments. */
export interface StandInCall {
  path: string;
  args: unknown[];
}

/**
 * A stand-in for a dependency the test leaves out: any property is callable and has properties, every
 * call is recorded and returns undefined. For ports whose answers matter, provide a real value instead.
 */
function standIn(calls: StandInCall[], path: string[] = []): unknown {
  return new Proxy(function standInFunction() {}, {
    get: (_target, property) => {
      // Not a thenable: awaiting a stand-in must not hang.
      if (property === 'then' || typeof property === 'symbol') return undefined;
      return standIn(calls, [...path, property]);
    },
    apply: (_target, _this, args: unknown[]) => {
      calls.push({ path: path.join('.'), args });
      return undefined;
    },
  });
}

export interface MediumOptions {
  database: MediumDatabase;
  /** The app's config class and the environment it is validated from (as AppConfigModule does at start). */
  config?: { schema: new () => BaseConfig; env: Record<string, string | undefined> };
  /** The app's feature modules, real (their controllers are built but never served). */
  imports?: ModuleMetadata['imports'];
  /** Real providers beyond the imported modules' (repositories, services). */
  providers?: Provider[];
  /** Ports the test answers itself (a platform, a clock): replace the module's provider of that token. */
  overrides?: Array<{ token: InjectionToken; value: unknown }>;
}

export interface MediumContext {
  module: TestingModule;
  /** A provider of what was built, by its class (typed) or token. */
  get<T>(token: Type<T> | string | symbol): T;
  database: MediumDatabase;
  /** Relay and task runner wake-ups asked for after commits (the UnitOfWork's, and Outbox.committed's). */
  wakes: { enqueued: number; scheduled: number };
  /** Calls made to the stand-in of `token` (a dependency nobody provided). */
  calls(token: InjectionToken): StandInCall[];
  /** Runs the `@OnTask(kind)` method of the built providers on a task due now: the durable path's entry, without a TaskRunner. */
  runTask<P>(kind: string, payload: P): Promise<TaskOutcome>;
  /** Runs the shutdown hooks of what was built (in-flight work is awaited); the database stays for the caller. */
  close(): Promise<void>;
}

function tokenName(token: InjectionToken): string {
  return typeof token === 'function' ? token.name : String(token);
}

/**
 * Builds the given modules and providers on the medium database: DataSource, UnitOfWork (whose
 * after-commit wake-ups are counted instead of waking a relay), a metrics Registry and the app's
 * validated config are provided; anything else unresolved becomes a recording stand-in.
 */
export async function newMediumContext(options: MediumOptions): Promise<MediumContext> {
  const wakes = { enqueued: 0, scheduled: 0 };
  const unitOfWork = new UnitOfWork(options.database.dataSource, { onEnqueued: () => (wakes.enqueued += 1), onScheduled: () => (wakes.scheduled += 1) });

  @Global()
  @Module({})
  class MediumGlobals {
    static forRoot(): DynamicModule {
      const providers: Provider[] = [
        { provide: DataSource, useValue: options.database.dataSource },
        { provide: UnitOfWork, useValue: unitOfWork },
        // Events written by a repository's own statement wake the relay through Outbox.committed: counted with the UnitOfWork's.
        { provide: Outbox, useValue: new Outbox(() => (wakes.enqueued += 1)) },
        { provide: Registry, useValue: new Registry() },
      ];
      return { module: MediumGlobals, providers, exports: providers.map((provider) => (provider as { provide: InjectionToken }).provide) };
    }
  }

  const standIns = new Map<string, StandInCall[]>();
  let builder = Test.createTestingModule({
    imports: [MediumGlobals.forRoot(), DiscoveryModule, ...(options.config ? [AppConfigModule.forRoot(options.config.schema, options.config.env)] : []), ...(options.imports ?? [])],
    providers: options.providers ?? [],
  }).useMocker((token) => {
    const name = tokenName(token as InjectionToken);
    const calls = standIns.get(name) ?? [];
    standIns.set(name, calls);
    return standIn(calls);
  });
  for (const { token, value } of options.overrides ?? []) builder = builder.overrideProvider(token).useValue(value);
  const module = await builder.compile();

  return {
    module,
    database: options.database,
    get: <T>(token: InjectionToken) => module.get<unknown, T>(token, { strict: false }),
    wakes,
    calls: (token) => standIns.get(tokenName(token)) ?? [],
    runTask: async (kind, payload) => {
      const scanner = new MetadataScanner();
      for (const wrapper of module.get(DiscoveryService).getProviders()) {
        const instance = wrapper.instance as Record<string, unknown> | undefined;
        if (!instance || typeof instance !== 'object') continue;
        for (const method of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
          if (taskKindOf(instance[method]) !== kind) continue;
          const handler = instance[method] as (task: unknown) => Promise<TaskOutcome>;
          return handler.call(instance, { id: randomUUID(), kind, payload, dueAt: new Date(), attempt: 1, headers: {} });
        }
      }
      throw new Error(`no @OnTask('${kind}') among the built providers`);
    },
    close: () => module.close(),
  };
}

/** immich's `newMediumService`: the service under test (`sut`, from `imports` when given, else built from `providers` and itself) and its context. */
export async function newMediumService<T>(service: Type<T>, options: MediumOptions): Promise<{ sut: T; ctx: MediumContext }> {
  const ctx = await newMediumContext({ ...options, providers: [...(options.providers ?? []), ...(options.imports?.length ? [] : [service])] });
  return { sut: ctx.get<T>(service), ctx };
}

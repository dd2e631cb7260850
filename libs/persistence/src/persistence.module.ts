import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BaseConfig } from '@courier/config';
import { appDataSourceOptions, AppDataSourceSettings } from './data-source-options';
import { runMigrationsLocked } from './migrations';

export type PersistenceSettings = Omit<AppDataSourceSettings, 'url' | 'poolSize'>;

/**
 * The app's TypeORM connection to its own schema. Pending migrations run at start under an
 * advisory lock unless MIGRATIONS_RUN=false (then a Job runs `npm run migrate`).
 */
@Module({})
export class PersistenceModule {
  static forRoot(settings: PersistenceSettings): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [BaseConfig],
          useFactory: (config: BaseConfig) =>
            appDataSourceOptions({ ...settings, url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }),
        }),
      ],
      providers: [
        {
          provide: 'MIGRATIONS_APPLIED',
          inject: [DataSource, BaseConfig],
          useFactory: async (dataSource: DataSource, config: BaseConfig) => {
            if (!config.MIGRATIONS_RUN) return [];
            const applied = await runMigrationsLocked(dataSource, settings.schema);
            if (applied.length) new Logger('Migrations').log(`${settings.schema}: applied ${applied.join(', ')}`);
            return applied;
          },
        },
      ],
      exports: [TypeOrmModule, 'MIGRATIONS_APPLIED'],
    };
  }
}

import { DynamicModule, Module, Provider } from '@nestjs/common';
import { HealthIndicatorFunction, TerminusModule, TypeOrmHealthIndicator, HealthIndicatorService } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { READINESS_CHECKS } from './tokens';
import { MESSAGE_TRANSPORT, MessageTransport } from '@courier/messaging';

export interface HealthOptions {
  database?: boolean;
  /**
   * true: readiness fails while the broker is unreachable. 'reported': the broker's state is shown
   * but never fails readiness (for an app that must keep serving through a broker outage, like
   * intake, whose outbox holds the events). false: not checked.
   */
  broker?: boolean | 'reported';
  timeoutMs?: number;
}

/** GET /health (liveness) and GET /health/ready (database and broker, each with a timeout). */
@Module({})
export class HealthModule {
  static forRoot(options: HealthOptions = { database: true, broker: true }): DynamicModule {
    const timeout = options.timeoutMs ?? 1500;
    const checksProvider: Provider = {
      provide: READINESS_CHECKS,
      inject: [TypeOrmHealthIndicator, HealthIndicatorService, { token: MESSAGE_TRANSPORT, optional: true }],
      useFactory: (db: TypeOrmHealthIndicator, indicators: HealthIndicatorService, transport?: MessageTransport) => {
        const checks: HealthIndicatorFunction[] = [];
        if (options.database) checks.push(() => db.pingCheck('database', { timeout }));
        if (options.broker && transport) {
          checks.push(async () => {
            const indicator = indicators.check('broker');
            const up = await Promise.race([
              transport.isReady(),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeout).unref()),
            ]);
            if (up) return indicator.up({ transport: transport.kind });
            return options.broker === 'reported' ? indicator.up({ transport: transport.kind, connected: false }) : indicator.down({ transport: transport.kind });
          });
        }
        return checks;
      },
    };
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [checksProvider],
    };
  }
}

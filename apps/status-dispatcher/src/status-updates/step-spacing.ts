import { Injectable } from '@nestjs/common';
import { PlatformAdapters } from '@courier/platforms';
import { stepKey } from './status-dispatch.decisions';

/**
 * The steps the platforms space out (`PLATFORM:ACTION`, from each adapter's `status.stepSpacing`) and each
 * platform's interval, read once for the push and the claim. The interval is also the PREPARE hold
 * of a platform whose rules hold it (guard 4).
 */
@Injectable()
export class StepSpacing {
  readonly keys: string[];
  private readonly intervals: Map<string, number>;

  constructor(adapters: PlatformAdapters) {
    const spacings = adapters.codes().map((code) => ({ code, spacing: adapters.get(code)!.status.stepSpacing?.() }));
    this.keys = spacings.flatMap(({ code, spacing }) => (spacing?.actions ?? []).map((action) => stepKey(code, action)));
    this.intervals = new Map(spacings.flatMap(({ code, spacing }) => (spacing ? [[code, spacing.ms] as const] : [])));
  }

  spaces(platform: string, action: string): boolean {
    return this.keys.includes(stepKey(platform, action));
  }

  /** The platform's interval between spaced steps (undefined: it spaces none). */
  intervalMs(platform: string): number | undefined {
    return this.intervals.get(platform);
  }
}

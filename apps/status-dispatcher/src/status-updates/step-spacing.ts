import { Injectable } from '@nestjs/common';
import { PlatformAdapters } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { stepKey } from './status-dispatch.decisions';

/** The steps the platforms space out (`PLATFORM:ACTION`, from each adapter's `stepSpacing`), read once for the push and the claim. */
@Injectable()
export class StepSpacing {
  readonly keys: string[];

  constructor(adapters: PlatformAdapters, config: DispatcherConfig) {
    this.keys = adapters.codes().flatMap((code) => (adapters.get(code)!.stepSpacing?.(config.PLATFORM_A_PREPARE_HOLD_MS)?.actions ?? []).map((action) => stepKey(code, action)));
  }

  spaces(platform: string, action: string): boolean {
    return this.keys.includes(stepKey(platform, action));
  }
}

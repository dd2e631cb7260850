import { Injectable, OnModuleInit, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { TaskRunner } from './task-runner';

const ON_TASK = 'courier:on-task';

/**
 * Marks a provider method as the handler of a durable delayed task kind (`scheduled_tasks`, run
 * by TaskRunner): `@OnTask(KIND) async run(task: ScheduledTask<P>): Promise<TaskOutcome>`.
 * Answer nothing when done, `{ rescheduleAt }` to run again later; a throw is retried with backoff.
 */
export const OnTask = (kind: string): MethodDecorator => SetMetadata(ON_TASK, kind);

/** Finds every `@OnTask` method of the app's providers at start and gives it to the TaskRunner. */
@Injectable()
export class TaskHandlerExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly tasks: TaskRunner,
  ) {}

  onModuleInit(): void {
    const seen = new Map<string, string>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[method];
        if (typeof handler !== 'function') continue;
        const kind = this.reflector.get<string | undefined>(ON_TASK, handler);
        if (!kind) continue;
        const owner = `${wrapper.name?.toString()}.${method}`;
        if (seen.has(kind)) throw new Error(`@OnTask('${kind}') is declared twice: ${seen.get(kind)} and ${owner}`);
        seen.set(kind, owner);
        this.tasks.register(kind, (task) => handler.call(instance, task));
      }
    }
  }
}

/** The task kind a method handles (its `@OnTask`), or undefined: for tests that run a task's handler without a TaskRunner. */
export function taskKindOf(method: unknown): string | undefined {
  return typeof method === 'function' ? (Reflect.getMetadata(ON_TASK, method) as string | undefined) : undefined;
}

import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toFieldErrors } from '@courier/http';

/** A message whose payload breaks its contract: thrown so that it is redelivered, then dead-lettered. */
export class MalformedMessageError extends Error {
  constructor(routingKey: string, problems: string[]) {
    super(`${routingKey}: malformed payload (${problems.join('; ')})`);
    this.name = 'MalformedMessageError';
  }
}

/** Validates a message payload against its contract class (class-validator), returning the instance. */
export function parseMessagePayload<T extends object>(contract: new () => T, routingKey: string, payload: unknown): T {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new MalformedMessageError(routingKey, ['not an object']);
  const instance = plainToInstance(contract, payload);
  const errors = validateSync(instance, { forbidUnknownValues: true });
  if (errors.length > 0) throw new MalformedMessageError(routingKey, toFieldErrors(errors).map((error) => `${error.field} ${error.message}`));
  return instance;
}

import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ErrorCode, FieldError } from '@courier/contracts';
import { MAX_INPUT_DEPTH } from './json-depth';
import { ProblemException } from './problem.exception';
import { MAX_FIELD_ERRORS } from './problem.filter';
import { validationProblem } from './request-input';

export const UNKNOWN_FIELD_MESSAGE = 'is not allowed';

/** Flattens nested class-validator errors into `{ field: "items[0].quantity", message }`. */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const isIndex = /^\d+$/.test(error.property);
    const field = parent ? (isIndex ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      result.push({ field, message: message.replace(/^property (\S+) should not exist$/, UNKNOWN_FIELD_MESSAGE) });
    }
    if (error.children?.length) result.push(...toFieldErrors(error.children, field));
  }
  return result;
}

export const STRICT_VALIDATION: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => validationProblem(toFieldErrors(errors)),
};

/**
 * The fields of `value` that `dto` does not declare, as field errors, when there are more than a
 * 422 lists (otherwise undefined: the DTO's own validation reports them). Checked before
 * class-transformer, which copies every field before class-validator refuses the unknown ones and
 * blocks the event loop for long on a body of thousands of them. Their names alone fill the
 * capped list, so the DTO's other errors could not be shown anyway. `nested` names array fields
 * whose elements are DTOs too (class-transformer's @Type is not readable here): intake's items.
 */
export function unknownFieldsBeyondCap(dto: unknown, value: unknown, nested: Record<string, Function> = {}): FieldError[] | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const elementsOf = (field: string): unknown[] => {
    const elements = (value as Record<string, unknown>)[field];
    return Array.isArray(elements) ? elements : [];
  };
  // Few fields in all (every ordinary body): nothing to look up.
  let fields = Object.keys(value).length;
  for (const field of Object.keys(nested)) for (const element of elementsOf(field)) fields += element !== null && typeof element === 'object' ? Object.keys(element).length : 0;
  if (fields <= MAX_FIELD_ERRORS) return undefined;
  const unknown: FieldError[] = [];
  collectUnknownFields(dto, value, '', unknown);
  for (const [field, elementDto] of Object.entries(nested)) elementsOf(field).forEach((element, index) => collectUnknownFields(elementDto, element, `${field}[${index}].`, unknown));
  return unknown.length > MAX_FIELD_ERRORS ? unknown : undefined;
}

function collectUnknownFields(dto: unknown, value: unknown, prefix: string, unknown: FieldError[]): void {
  if (typeof dto !== 'function' || value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const keys = Object.keys(value);
  const declared = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false).map((metadata) => metadata.propertyName));
  if (declared.size === 0) return;
  for (const key of keys) if (!declared.has(key)) unknown.push({ field: `${prefix}${key}`, message: UNKNOWN_FIELD_MESSAGE });
}

export { MAX_INPUT_DEPTH } from './json-depth';

/** Whether objects/arrays in `value` nest deeper than `limit` (iterative: any depth is safe to measure). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * ValidationPipe that first refuses deeply nested input: class-transformer recurses through every
 * value, unknown fields included, so a 256 KiB body of nested arrays would overflow the stack (a 500).
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor(options: ValidationPipeOptions = STRICT_VALIDATION) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (nestsDeeperThan(value, MAX_INPUT_DEPTH)) {
      throw new ProblemException(400, ErrorCode.InvalidPayload, `The request ${metadata.type} nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.`);
    }
    const unknownFields = unknownFieldsBeyondCap(metadata.metatype, value);
    if (unknownFields) throw validationProblem(unknownFields);
    return super.transform(value, metadata);
  }
}

/** Strict validation everywhere: unknown fields refused, values transformed to the DTO's types. */
export function strictValidationPipe(): ValidationPipe {
  return new StrictValidationPipe(STRICT_VALIDATION);
}

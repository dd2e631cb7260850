import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { ErrorCode, FieldError } from '@courier/contracts';
import { ProblemException } from './problem.exception';

/** 422 VALIDATION_ERROR listing `errors` (the problem filter shows the first MAX_FIELD_ERRORS and counts the rest). */
export function validationProblem(errors: FieldError[], detail = 'The request has invalid fields.'): ProblemException {
  return new ProblemException(422, ErrorCode.ValidationError, detail, errors);
}

export const UNSTORABLE_STRING_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** PostgreSQL (text and jsonb) refuses NUL characters, and unpaired surrogates cannot be encoded as UTF-8. */
export function isUnstorableString(value: string): boolean {
  return value.includes('\u0000') || !(value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A container met in the walk; its field name is built only when an error needs it. */
interface Visited {
  value: object;
  parent: Visited | undefined;
  key: string;
}

function fieldName(parent: Visited, key: string, root: string): string {
  const chain: Array<[string, boolean]> = [];
  let name = key;
  for (let node: Visited | undefined = parent; node; name = node.key, node = node.parent) chain.push([name, Array.isArray(node.value)]);
  let path = root;
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const [field, inArray] = chain[index];
    path = inArray ? `${path}[${field}]` : path ? `${path}.${field}` : field;
  }
  return path;
}

export interface InputFindings {
  /** Strings (values and keys) PostgreSQL could not store, named like validation errors (`items[0].name`). */
  unstorable: FieldError[];
  /** A `__proto__` key, or a `constructor` holding `prototype` (see hasPrototypeKey). */
  prototypeKey: boolean;
}

/** One iterative walk over parsed input (any nesting is safe): what the two checks below look for. */
export function inspectInput(value: unknown, root = ''): InputFindings {
  const findings: InputFindings = { unstorable: [], prototypeKey: false };
  if (typeof value === 'string') {
    if (isUnstorableString(value)) findings.unstorable.push({ field: root, message: UNSTORABLE_STRING_MESSAGE });
    return findings;
  }
  if (value === null || typeof value !== 'object') return findings;
  const pending: Visited[] = [{ value, parent: undefined, key: '' }];
  const unstorable = (parent: Visited, key: string) => findings.unstorable.push({ field: fieldName(parent, key, root), message: UNSTORABLE_STRING_MESSAGE });
  while (pending.length > 0) {
    const node = pending.pop()!;
    const inArray = Array.isArray(node.value);
    const fields = node.value as Record<string, unknown>;
    const children: Visited[] = [];
    for (const key of Object.keys(fields)) {
      const child = fields[key];
      if (!inArray) {
        if (key === '__proto__') findings.prototypeKey = true;
        else if (key === 'constructor' && child !== null && typeof child === 'object' && Object.prototype.hasOwnProperty.call(child, 'prototype')) findings.prototypeKey = true;
        if (isUnstorableString(key)) unstorable(node, key);
      }
      if (typeof child === 'string') {
        if (isUnstorableString(child)) unstorable(node, key);
      } else if (child !== null && typeof child === 'object') {
        children.push({ value: child, parent: node, key });
      }
    }
    // Reversed onto the stack, so nested errors come out in document order after their parent's own.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]);
  }
  return findings;
}

/** Every string (values and keys) in `value` that PostgreSQL could not store, as field errors. */
export function unstorableStrings(value: unknown, root = ''): FieldError[] {
  return inspectInput(value, root).unstorable;
}

/**
 * Whether a parsed JSON body carries a key that would reach an object's prototype once the body is
 * merged or copied: `__proto__` anywhere, or `constructor` holding a `prototype` (the rule of
 * Fastify's secure-json-parse). JSON.parse keeps them as own properties; a later spread or
 * assignment does not.
 */
export function hasPrototypeKey(value: unknown): boolean {
  return inspectInput(value).prototypeKey;
}

const prototypeKeyProblem = () => new ProblemException(400, ErrorCode.InvalidPayload, 'The request body must not contain "__proto__" or "constructor.prototype" keys.');

/** 400 INVALID_PAYLOAD for a body with a prototype key (see hasPrototypeKey); nothing of it is stored. */
export function refusePrototypeKeys(body: unknown): void {
  if (hasPrototypeKey(body)) throw prototypeKeyProblem();
}

interface RoutedRequest {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
}

/**
 * The one check of request input every app runs once a route is matched and its guards passed:
 * path parameters, query and parsed JSON body must hold no string PostgreSQL cannot store (422,
 * listed like validation errors) and the body no prototype key (400). Routes that read their body
 * themselves (intake) call unstorableStrings / refusePrototypeKeys on it.
 */
export function checkRequestInput(request: RoutedRequest): void {
  const body = inspectInput(request.body);
  if (body.prototypeKey) throw prototypeKeyProblem();
  const errors = [...unstorableStrings(request.params ?? {}), ...unstorableStrings(request.query ?? {}), ...body.unstorable];
  if (errors.length > 0) throw validationProblem(errors);
}

/** checkRequestInput as a global interceptor: after the guards (so unauthenticated callers learn nothing), before pipes and handler. */
@Injectable()
export class RequestInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') checkRequestInput(context.switchToHttp().getRequest<RoutedRequest>());
    return next.handle();
  }
}

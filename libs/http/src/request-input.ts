import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { IncomingMessage } from 'node:http';
import type { Observable } from 'rxjs';
import { ErrorCode, FieldError } from '@courier/contracts';
import { DEFAULT_JSON_BODY_LIMIT, hasRequestBody, isJsonMediaType, isSelfParsedPath, readJsonBody } from './json-body';
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
  /**
   * Keys that reach an object's prototype once the input is merged or copied: `__proto__` anywhere,
   * or `constructor` holding `prototype` (the rule of Fastify's secure-json-parse). JSON.parse
   * keeps them as own properties; class-transformer drops them silently, so no DTO reports them.
   */
  prototypeKeys: FieldError[];
}

export const PROTOTYPE_KEY_MESSAGE = 'is not allowed';

/** One iterative walk over parsed input (any nesting is safe): what checkRequestInput refuses. */
export function inspectInput(value: unknown, root = ''): InputFindings {
  const findings: InputFindings = { unstorable: [], prototypeKeys: [] };
  if (typeof value === 'string') {
    if (isUnstorableString(value)) findings.unstorable.push({ field: root, message: UNSTORABLE_STRING_MESSAGE });
    return findings;
  }
  if (value === null || typeof value !== 'object') return findings;
  const pending: Visited[] = [{ value, parent: undefined, key: '' }];
  const found = (list: FieldError[], parent: Visited, key: string, message: string) => list.push({ field: fieldName(parent, key, root), message });
  while (pending.length > 0) {
    const node = pending.pop()!;
    const inArray = Array.isArray(node.value);
    const fields = node.value as Record<string, unknown>;
    const children: Visited[] = [];
    for (const key of Object.keys(fields)) {
      const child = fields[key];
      if (!inArray) {
        if (key === '__proto__') found(findings.prototypeKeys, node, key, PROTOTYPE_KEY_MESSAGE);
        else if (key === 'constructor' && child !== null && typeof child === 'object' && Object.prototype.hasOwnProperty.call(child, 'prototype')) {
          found(findings.prototypeKeys, { value: child, parent: node, key }, 'prototype', PROTOTYPE_KEY_MESSAGE);
        }
        if (isUnstorableString(key)) found(findings.unstorable, node, key, UNSTORABLE_STRING_MESSAGE);
      }
      if (typeof child === 'string') {
        if (isUnstorableString(child)) found(findings.unstorable, node, key, UNSTORABLE_STRING_MESSAGE);
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

interface RoutedRequest {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
}

/**
 * The one check of request input every app runs once a route is matched and its guards passed:
 * path parameters, query and parsed JSON body must hold no string PostgreSQL cannot store, and the
 * body no prototype key; both are 422 VALIDATION_ERROR, listed like the DTOs' errors. Intake, which
 * reads its body itself, adds inspectInput's findings to its order's field errors.
 */
export function checkRequestInput(request: RoutedRequest): void {
  const body = inspectInput(request.body);
  const errors = [...unstorableStrings(request.params ?? {}), ...unstorableStrings(request.query ?? {}), ...body.unstorable, ...body.prototypeKeys];
  if (errors.length > 0) throw validationProblem(errors);
}

export interface RequestInputOptions {
  /** Largest JSON body, in bytes. */
  bodyLimit?: number;
  /** Paths whose handler reads the body itself (see isSelfParsedPath). */
  selfParsedBodyPaths?: readonly string[];
}

type IncomingRequest = IncomingMessage & RoutedRequest & { _body?: boolean };

/** Whether the matched handler takes a body (`@Body()` on one of its parameters). */
export function handlerTakesBody(context: ExecutionContext): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/** 415 for a body that is not JSON (missing Content-Type included: the reader never guesses a body's type). */
export function unsupportedMediaType(): ProblemException {
  return new ProblemException(415, ErrorCode.UnsupportedMediaType, 'The request body must be JSON: Content-Type application/json (or application/<name>+json).');
}

/**
 * Every app's request input, once a route is matched and its guards passed: reads the JSON body
 * (so credentials and rate limits are checked before a byte of it is parsed, and an unauthenticated
 * caller learns nothing about how its body is read), then checkRequestInput. Runs before the pipes,
 * which validate the body it set. A non-empty body that is not JSON is 415 on a handler taking a
 * body (an empty one is left to the DTO). A body read already (mock-receiver's raw webhook capture) is left.
 */
@Injectable()
export class RequestInputInterceptor implements NestInterceptor {
  private readonly selfParsed: (request: IncomingMessage) => boolean;
  private readonly bodyLimit: number;

  constructor(options: RequestInputOptions = {}) {
    this.selfParsed = isSelfParsedPath(options.selfParsedBodyPaths ?? []);
    this.bodyLimit = options.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT;
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<IncomingRequest>();
    if (request.body === undefined && !request._body && !request.readableEnded && hasRequestBody(request) && !this.selfParsed(request)) {
      // A handler without a body ignores a non-JSON one, as before; one that takes a body refuses it.
      if (!isJsonMediaType(request.headers['content-type'])) {
        if (handlerTakesBody(context)) throw unsupportedMediaType();
        checkRequestInput(request);
        return next.handle();
      }
      const body = await readJsonBody(request, this.bodyLimit);
      // Objects and arrays only, as body-parser's strict mode had it: a DTO never takes a bare value.
      if (body === null || typeof body !== 'object') throw new ProblemException(400, ErrorCode.InvalidPayload, 'The request body must be a JSON object or array.');
      request.body = body;
    }
    checkRequestInput(request);
    return next.handle();
  }
}

import { buildProblem, MAX_FIELD_ERRORS } from './problem.filter';
import { checkRequestInput, inspectInput, unstorableStrings } from './request-input';
import { ProblemException } from './problem.exception';

const message = 'must not contain NUL characters or unpaired surrogates';

describe('unstorableStrings', () => {
  it('names every NUL or lone surrogate, in values and keys, like validation errors', () => {
    const body = JSON.parse('{"a":"x\\u0000","items":[{"name":"\\ud800"},"ok",["\\u0000"]],"k\\u0000":1,"fine":"\\ud83d\\ude00"}');
    expect(unstorableStrings(body)).toEqual([
      { field: 'a', message },
      { field: 'k\u0000', message },
      { field: 'items[0].name', message },
      { field: 'items[2][0]', message },
    ]);
    expect(unstorableStrings('\u0000', 'orderId')).toEqual([{ field: 'orderId', message }]);
    expect(unstorableStrings({ text: 'ok', n: 1, none: null })).toEqual([]);
  });
});

describe('inspectInput', () => {
  const prototypeKeys = (json: string) => inspectInput(JSON.parse(json)).prototypeKeys.map((error) => error.field);

  it('finds __proto__ anywhere and constructor.prototype, as JSON.parse leaves them', () => {
    expect(prototypeKeys('{"__proto__":{"admin":true}}')).toEqual(['__proto__']);
    expect(prototypeKeys('{"items":[{"__proto__":{}}]}')).toEqual(['items[0].__proto__']);
    expect(prototypeKeys('{"constructor":{"prototype":{"admin":true}}}')).toEqual(['constructor.prototype']);
    expect(prototypeKeys('{"constructor":"Acme","prototype":1,"name":"__proto__"}')).toEqual([]);
  });
});

describe('buildProblem', () => {
  it('lists at most MAX_FIELD_ERRORS errors and counts the rest', () => {
    const errors = Array.from({ length: 50 }, (_, index) => ({ field: `f${index}`, message: 'is not allowed' }));
    const problem = buildProblem(422, 'VALIDATION_ERROR', 'invalid', undefined, errors);
    expect(problem.errors).toEqual(errors.slice(0, MAX_FIELD_ERRORS));
    expect(problem.errorsOmitted).toBe(50 - MAX_FIELD_ERRORS);
    expect(buildProblem(422, 'VALIDATION_ERROR', 'invalid', undefined, errors.slice(0, 3))).not.toHaveProperty('errorsOmitted');
  });
});

describe('checkRequestInput', () => {
  const refusal = (request: Parameters<typeof checkRequestInput>[0]) => {
    try {
      checkRequestInput(request);
      return undefined;
    } catch (error) {
      return error as ProblemException;
    }
  };

  it('refuses unstorable params, query and body, and prototype keys, with 422', () => {
    expect(refusal({ params: { id: '\u0000' } })).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'id', message }] });
    expect(refusal({ params: {}, query: { orderId: '\ud800' } })).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'orderId', message }] });
    expect(refusal({ body: { token: 'a\u0000' } })?.getStatus()).toBe(422);
    expect(refusal({ body: JSON.parse('{"__proto__":{}}') })).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: '__proto__', message: 'is not allowed' }] });
    expect(refusal({ params: { id: 'x' }, query: { a: 'b' }, body: { name: 'ok' } })).toBeUndefined();
  });
});

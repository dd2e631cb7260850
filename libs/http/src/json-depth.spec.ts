import { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { readJsonBody } from './json-body';
import { jsonNestsDeeperThan, MAX_INPUT_DEPTH } from './json-depth';
import { ProblemException } from './problem.exception';
import { nestsDeeperThan } from './validation';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestsDeeperThan (the scan of raw JSON before JSON.parse)', () => {
  it('counts arrays and objects alike, refusing one level past the limit, as nestsDeeperThan does on the parsed value', () => {
    for (const depth of [1, 2, 31, 32, 33, 40]) {
      const text = JSON.stringify(JSON.parse(arrays(depth)));
      expect({ depth, scanned: jsonNestsDeeperThan(bytes(text), 32) }).toEqual({ depth, scanned: nestsDeeperThan(JSON.parse(text), 32) });
    }
    const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(jsonNestsDeeperThan(bytes(objects(32)), 32)).toBe(false);
    expect(jsonNestsDeeperThan(bytes(objects(33)), 32)).toBe(true);
    expect(jsonNestsDeeperThan(bytes('[{"a":[{"b":[]}]}]'), 4)).toBe(true);
    expect(jsonNestsDeeperThan(bytes('[{"a":[{"b":1}]}]'), 4)).toBe(false);
  });

  it('measures depth, not the number of containers: siblings closed again do not add up', () => {
    const text = bytes(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1, { b: [] }] }))));
    expect(jsonNestsDeeperThan(text, 5)).toBe(false);
    expect(jsonNestsDeeperThan(text, 4)).toBe(true);
  });

  it('does not count brackets inside strings, keys included, nor escaped quotes as string ends', () => {
    expect(jsonNestsDeeperThan(bytes(JSON.stringify({ text: '[[[[[[[[[[{{{{{{{{' })), 2)).toBe(false);
    expect(jsonNestsDeeperThan(bytes(JSON.stringify({ '[[[[[[': '{{{{{{' })), 1)).toBe(false);
    // An escaped quote keeps the string open: the brackets after it are still text.
    expect(jsonNestsDeeperThan(bytes(JSON.stringify({ text: 'say \\"[[[[[[" ok' })), 2)).toBe(false);
    expect(jsonNestsDeeperThan(bytes('["a\\"[[[[[[[[", "\\\\", [[[]]]]'), 3)).toBe(true);
    expect(jsonNestsDeeperThan(bytes('["a\\"[[[[[[[[", "\\\\", [[[]]]]'), 4)).toBe(false);
    // A string ending in an escaped backslash ends there: what follows counts again.
    expect(jsonNestsDeeperThan(bytes('["\\\\", [[[[]]]]]'), 4)).toBe(true);
  });

  it('reads UTF-8 byte by byte without miscounting multi-byte characters, and stray closers buy no depth', () => {
    expect(jsonNestsDeeperThan(bytes(JSON.stringify({ ad: 'İskender şiş [ğüç] 🍕' })), 1)).toBe(false);
    expect(jsonNestsDeeperThan(bytes(']]]]]]]]' + arrays(5)), 4)).toBe(true);
    expect(jsonNestsDeeperThan(bytes(''), 0)).toBe(false);
    expect(jsonNestsDeeperThan(bytes('{}'), 0)).toBe(true);
  });
});

describe('readJsonBody and nesting', () => {
  const request = (body: string) => Object.assign(Readable.from([Buffer.from(body)]), { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }) as unknown as IncomingMessage;
  const refusal = async (body: string) => readJsonBody(request(body)).then(() => undefined, (error: unknown) => error);

  afterEach(() => jest.restoreAllMocks());

  it('refuses a body nested past the limit with 400 INVALID_PAYLOAD without calling JSON.parse', async () => {
    const parse = jest.spyOn(JSON, 'parse');
    const error = await refusal(arrays(128 * 1024));
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).getStatus()).toBe(400);
    expect((error as ProblemException).getResponse()).toMatchObject({ code: 'INVALID_PAYLOAD', detail: `The request body nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.` });
    // Deep and broken: the depth answers, because the parser never ran.
    expect(await refusal('['.repeat(100) + '{broken')).toMatchObject({ response: expect.objectContaining({ detail: expect.stringMatching(/levels deep/) }) });
    expect(parse).not.toHaveBeenCalled();
  });

  it('parses a body at the limit', async () => {
    const parse = jest.spyOn(JSON, 'parse');
    await expect(readJsonBody(request(arrays(MAX_INPUT_DEPTH)))).resolves.toEqual(JSON.parse(arrays(MAX_INPUT_DEPTH)));
    expect(parse).toHaveBeenCalled();
  });
});

import fc from 'fast-check';
import { internal, INTERNAL_KEY, PREVIOUS_INTERNAL_KEY, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(180_000);

/**
 * Property-based: random bodies, content types, ids and headers at every internal endpoint never
 * get a 5xx, and every error is problem JSON with a code.
 */
describe('no bad input gives a 5xx (fast-check)', () => {
  let t: TestApp;
  let orderIds: string[];

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'warn' } });
    orderIds = [];
    for (let i = 0; i < 5; i += 1) orderIds.push((await t.createOrder()).id);
  });
  afterAll(() => t?.close());

  const TRIGGERS = ['APPROVE', 'ROUTE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL', 'approve', '', 'FAIL', '__proto__'];
  const FIELDS = ['trigger', 'reason', 'cancelReasonId', 'canceledBy', 'occurredAt', 'status', '__proto__', 'constructor', 'id'];
  const strings = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', ' ', '\u0000', 'OTHER', 'System', 'Courier', 'WRONG_ADDRESS', '2025-01-01T00:00:00Z', '2999-01-01T00:00:00+14:00', '0000-01-01T00:00:00Z', '2025-01-01T00:00:00+23:59', 'x'.repeat(5000)),
  );
  const values = fc.oneof(strings, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 2 }), fc.date({ noInvalidDate: true }).map((date) => date.toISOString()));
  const plausibleBody = fc.record(
    { trigger: fc.oneof(fc.constantFrom(...TRIGGERS), values), extra: fc.dictionary(fc.constantFrom(...FIELDS), values, { maxKeys: 4 }) },
    { requiredKeys: ['extra'] },
  ).map(({ trigger, extra }) => ({ ...extra, ...(trigger !== undefined ? { trigger } : {}) }));
  const rawBody = fc.oneof(
    plausibleBody.map((body) => JSON.stringify(body)),
    fc.json({ maxDepth: 4 }),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null'),
    fc.string(),
    fc.constantFrom('{', '[', 'null', 'true', '""', '[]', '{}', '[{"trigger":"APPROVE"}]', '{"trigger":{"$ne":""}}', '['.repeat(5000) + ']'.repeat(5000), `{"trigger":${'['.repeat(3000)}${']'.repeat(3000)}}`),
  );
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/json; charset=utf-16');
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 600 });
  const ids = fc.oneof(
    fc.uuid(),
    fc.string().map(encodeURIComponent),
    fc.string({ unit: 'grapheme' }).map(encodeURIComponent),
    fc.constantFrom('%', '%E0%A4%A', '..', '%2e%2e', 'null', 'undefined', '0', '-1', "x'--", '%00', 'a%2Fb', '00000000-0000-0000-0000-000000000000'),
  );

  function expectSafe(response: any): void {
    if (response.status >= 500) throw new Error(`${response.status} ${JSON.stringify(response.body)} ${response.req?.method} ${response.req?.path}`);
    if (response.status >= 400) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(typeof response.body.code).toBe('string');
    }
  }

  it('random bodies and content types on transitions, with a valid key', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, fc.constantFrom(...[0, 1, 2, 3, 4]), async (body, type, index) => {
        const call = t.http.post(`/internal/orders/${orderIds[index]}/transitions`).set(internal());
        expectSafe(await (type ? call.set('Content-Type', type) : call).send(body));
      }),
      { numRuns: 400 },
    );
  });

  it('random plausible bodies: only 200, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(plausibleBody, fc.constantFrom(...[0, 1, 2, 3, 4]), async (body, index) => {
        const response = await t.transition(orderIds[index], body);
        expectSafe(response);
        expect([200, 409, 422]).toContain(response.status);
      }),
      { numRuns: 300 },
    );
  });

  it('random keys and headers: 401 unless the key is a configured one', async () => {
    const headerSets = fc.record(
      {
        'X-Internal-Api-Key': fc.oneof(printable, fc.constantFrom(INTERNAL_KEY, PREVIOUS_INTERNAL_KEY, `${INTERNAL_KEY} `, INTERNAL_KEY.toUpperCase())),
        'X-API-Key': printable,
        Authorization: printable,
        'X-Request-Id': printable,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(headerSets, fc.boolean(), async (headers, read) => {
        const path = `/internal/orders/${orderIds[0]}`;
        const response = read ? await t.http.get(path).set(headers as Record<string, string>) : await t.http.post(`${path}/transitions`).set(headers as Record<string, string>).send({ trigger: 'FAIL' });
        expectSafe(response);
        const key = (headers as Record<string, string>)['X-Internal-Api-Key'];
        const valid = key?.trim() === INTERNAL_KEY || key?.trim() === PREVIOUS_INTERNAL_KEY;
        if (!valid) expect(response.status).toBe(401);
        else expect(response.status).toBe(read ? 200 : 422);
      }),
      { numRuns: 300 },
    );
  });

  it('random ids: 404 (400 for a broken percent-encoding, 422 for a NUL), never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.boolean(), async (id, read) => {
        const response = read ? await t.http.get(`/internal/orders/${id}`).set(internal()) : await t.transition(id, { trigger: 'APPROVE' });
        expectSafe(response);
        expect(decodeURIComponentOrRaw(id).includes('\u0000') ? [422] : [400, 404]).toContain(response.status);
        if (/^[0-9a-f-]{36}$/i.test(id)) expect(response.body.code).toBe('ORDER_NOT_FOUND');
      }),
      { numRuns: 300 },
    );
  });
});

/** The id as the router decodes it (a broken percent-encoding stays as sent: the router answers 400). */
function decodeURIComponentOrRaw(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

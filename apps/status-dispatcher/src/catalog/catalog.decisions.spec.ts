import { autoLinks, decideImportAnswer, diffMenus, distinctProducts, linksRequestProblem, manualLinkKind, productCodeProblem, proposeCode, storableProduct } from './catalog.decisions';

const product = (platformProductId: string, over: Partial<{ name: string; price: number | null; status: 'ACTIVE' | 'INACTIVE'; externalCode: string | null }> = {}) => ({
  platformProductId,
  name: over.name ?? `Product ${platformProductId}`,
  price: over.price === undefined ? 100 : over.price,
  status: over.status ?? ('ACTIVE' as const),
  externalCode: over.externalCode ?? null,
});

describe('productCodeProblem', () => {
  it.each([['ADANA-01'], ['a'], ['x'.repeat(64)], ['Kaşarlı Pide 1'], ['注文-1']])('accepts %j', (code) => expect(productCodeProblem(code)).toBeUndefined());
  it.each([
    ['', /1-64/],
    ['x'.repeat(65), /1-64/],
    [' ADANA', /white space/],
    ['ADANA ', /white space/],
    ['AD\nANA', /printable \(U\+000A/],
    ['AD\u200bANA', /printable \(U\+200B/],
    ['AD\u0001', /printable/],
  ])('refuses %j', (code, message) => expect(productCodeProblem(code)).toMatch(message));
});

describe('storableProduct', () => {
  it('keeps a product the database can hold as it is', () => {
    const kept = { ...product('p-1', { price: 9_999_999_999.99 }), options: [{ name: 'Acı', price: 5 }], platformData: { chainProductId: 'c-1' } };
    expect(storableProduct(kept)).toEqual(kept);
  });

  it.each([1e10, 9_999_999_999.995, -1e12, Number.NaN, Number.POSITIVE_INFINITY])('drops a price numeric(12, 2) cannot hold: %p', (price) => {
    expect(storableProduct(product('p-1', { price })).price).toBeNull();
  });

  it('takes NUL out of every text, nested ones and keys included', () => {
    const stored = storableProduct({ ...product('p\u00001', { name: 'Ay\u0000ran', externalCode: 'A\u0000' }), platformData: { 'no\u0000te': ['x\u0000', { deep: '\u0000' }] } });
    expect(stored).toMatchObject({ platformProductId: 'p1', name: 'Ayran', externalCode: 'A', platformData: { note: ['x', { deep: '' }] } });
  });
});

describe('distinctProducts', () => {
  it('keeps the first of a product listed twice, in menu order', () => {
    const menu = [product('p1', { name: 'first' }), product('p2'), product('p1', { name: 'second' })];
    expect(distinctProducts(menu).map((p) => [p.platformProductId, p.name])).toEqual([['p1', 'first'], ['p2', 'Product p2']]);
  });
});

describe('autoLinks', () => {
  it('links a product carrying a code to that code, named after the product', () => {
    expect(autoLinks([product('p1', { externalCode: 'ADANA-01', name: 'Adana Kebap' })], [])).toEqual([{ platformProductId: 'p1', productCode: 'ADANA-01', name: 'Adana Kebap' }]);
  });

  it('trims the code the platform carries', () => {
    expect(autoLinks([product('p1', { externalCode: '  ADANA-01 ' })], [])).toMatchObject([{ productCode: 'ADANA-01' }]);
  });

  it('leaves products without a code, with an empty one, or with an invalid one', () => {
    expect(autoLinks([product('p1'), product('p2', { externalCode: '' }), product('p3', { externalCode: '   ' }), product('p4', { externalCode: 'x'.repeat(65) }), product('p5', { externalCode: 'A\u0000B' })], [])).toEqual([]);
  });

  it('never changes a product linked already (a manual link wins over the code it carries)', () => {
    expect(autoLinks([product('p1', { externalCode: 'ADANA-01' })], [{ platformProductId: 'p1', productCode: 'MY-ADANA' }])).toEqual([]);
  });

  it('leaves a code linked to another product of the integration where it is', () => {
    expect(autoLinks([product('p2', { externalCode: 'ADANA-01' })], [{ platformProductId: 'p1', productCode: 'ADANA-01' }])).toEqual([]);
  });

  it('gives a code carried by two products of one menu to the first only', () => {
    expect(autoLinks([product('p1', { externalCode: 'AYRAN' }), product('p2', { externalCode: 'AYRAN' }), product('p3', { externalCode: 'URFA' })], [])).toEqual([
      { platformProductId: 'p1', productCode: 'AYRAN', name: 'Product p1' },
      { platformProductId: 'p3', productCode: 'URFA', name: 'Product p3' },
    ]);
  });
});

describe('proposeCode', () => {
  const on = (integrationId: string, nameKey: string) => ({ integrationId, nameKey });

  it('proposes the one code whose name has the product\'s key', () => {
    expect(proposeCode(on('i1', 'kunefe'), [{ productCode: 'KUNEFE-01', nameKey: 'kunefe', linkedOn: [] }, { productCode: 'AYRAN-01', nameKey: 'ayran', linkedOn: [] }])).toBe('KUNEFE-01');
  });

  it('proposes a code through a product linked to it on another integration (the same code listed by several candidates counts once)', () => {
    const candidates = [
      { productCode: 'PIDE-KAS-01', nameKey: 'kasarli pide', linkedOn: ['i2'] },
      { productCode: 'PIDE-KAS-01', nameKey: null, linkedOn: ['i2'] },
    ];
    expect(proposeCode(on('i1', 'kasarli pide'), candidates)).toBe('PIDE-KAS-01');
  });

  it('proposes nothing when no code matches', () => {
    expect(proposeCode(on('i1', 'kunefe'), [{ productCode: 'AYRAN-01', nameKey: 'ayran', linkedOn: [] }])).toBeNull();
  });

  it('proposes nothing when two codes match (the operator chooses)', () => {
    expect(proposeCode(on('i1', 'ayran'), [{ productCode: 'AYRAN-01', nameKey: 'ayran', linkedOn: [] }, { productCode: 'AYRAN-02', nameKey: 'ayran', linkedOn: [] }])).toBeNull();
  });

  it('proposes no code linked on the product\'s own integration already (one product per code there)', () => {
    expect(proposeCode(on('i1', 'ayran'), [{ productCode: 'AYRAN-01', nameKey: 'ayran', linkedOn: ['i1', 'i2'] }])).toBeNull();
  });

  it('proposes nothing for a name with no letters or digits', () => {
    expect(proposeCode(on('i1', ''), [{ productCode: 'X', nameKey: '', linkedOn: [] }])).toBeNull();
  });
});

describe('manualLinkKind', () => {
  it('is confirmed when the link is the proposal, manual otherwise', () => {
    expect(manualLinkKind('KUNEFE-01', 'KUNEFE-01')).toBe('confirmed');
    expect(manualLinkKind('KUNEFE-01', 'KUNEFE-02')).toBe('manual');
    expect(manualLinkKind(null, 'KUNEFE-01')).toBe('manual');
  });
});

describe('diffMenus', () => {
  const none = new Map<string, string>();

  it('finds nothing when the menu is the same', () => {
    expect(diffMenus([product('p1'), product('p2')], [product('p2'), product('p1')], none)).toEqual([]);
  });

  it('compares prices to the cent (a float\'s last bits are no drift)', () => {
    expect(diffMenus([product('p1', { price: 0.3 })], [product('p1', { price: 0.1 + 0.2 })], none)).toEqual([]);
    expect(diffMenus([product('p1', { price: 90 })], [product('p1', { price: 90.01 })], none)).toEqual([{ kind: 'price', platformProductId: 'p1', productCode: null, before: 90, after: 90.01 }]);
  });

  it('sees a price appear or disappear', () => {
    expect(diffMenus([product('p1', { price: null })], [product('p1', { price: 5 })], none)).toEqual([{ kind: 'price', platformProductId: 'p1', productCode: null, before: null, after: 5 }]);
    expect(diffMenus([product('p1', { price: 5 })], [product('p1', { price: null })], none)).toEqual([{ kind: 'price', platformProductId: 'p1', productCode: null, before: 5, after: null }]);
  });

  it('sees a name and a status change, with the linked code', () => {
    const links = new Map([['p1', 'ADANA-01']]);
    expect(diffMenus([product('p1', { name: 'Adana', status: 'ACTIVE' })], [product('p1', { name: 'Adana Kebap', status: 'INACTIVE' })], links)).toEqual([
      { kind: 'name', platformProductId: 'p1', productCode: 'ADANA-01', before: 'Adana', after: 'Adana Kebap' },
      { kind: 'status', platformProductId: 'p1', productCode: 'ADANA-01', before: 'ACTIVE', after: 'INACTIVE' },
    ]);
  });

  it('sees products added, removed, and a linked one removed', () => {
    const links = new Map([['p2', 'URFA-01']]);
    expect(diffMenus([product('p1'), product('p2')], [product('p3')], links)).toEqual([
      { kind: 'removed', platformProductId: 'p1', productCode: null, before: null, after: null },
      { kind: 'linked_removed', platformProductId: 'p2', productCode: 'URFA-01', before: null, after: null },
      { kind: 'added', platformProductId: 'p3', productCode: null, before: null, after: null },
    ]);
  });

  it('reports every kind of one product in a fixed order', () => {
    expect(diffMenus([product('p1', { price: 1, name: 'a', status: 'ACTIVE' })], [product('p1', { price: 2, name: 'b', status: 'INACTIVE' })], none).map((c) => c.kind)).toEqual(['price', 'name', 'status']);
  });

  it('sees an empty menu as every product removed', () => {
    expect(diffMenus([product('p1')], [], none).map((c) => c.kind)).toEqual(['removed']);
  });
});

describe('decideImportAnswer', () => {
  const policy = { baseMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 };
  const now = new Date('2026-11-26T12:00:00.000Z');
  const facts = (attempts: number, acceptedAt = new Date(now.getTime() - 1_000)) => ({ attempts, firstAttemptAt: acceptedAt, acceptedAt });
  const answer = { httpStatus: 503, body: { message: 'down' } };

  it('reads again after the backoff (jitter 0.5: the middle), growing with the attempts', () => {
    expect(decideImportAnswer(facts(1), { kind: 'retry', answer }, now, policy, 0.5)).toEqual({ kind: 'retry', at: new Date(now.getTime() + 1_000), answer: { ...answer, outcome: 'retry', at: now.toISOString() } });
    expect(decideImportAnswer(facts(3), { kind: 'retry', answer }, now, policy, 0.5)).toMatchObject({ kind: 'retry', at: new Date(now.getTime() + 4_000) });
  });

  it('waits at least the platform\'s Retry-After', () => {
    expect(decideImportAnswer(facts(1), { kind: 'retry', answer: { httpStatus: 429, body: null }, retryAfterMs: 30_000 }, now, policy, 0.5)).toMatchObject({ kind: 'retry', at: new Date(now.getTime() + 30_000) });
  });

  it('gives up past the maximum age from the request, keeping the last answer', () => {
    const decision = decideImportAnswer(facts(9, new Date(now.getTime() - 3_599_500)), { kind: 'retry', answer }, now, policy, 0.5);
    expect(decision).toMatchObject({ kind: 'failed', answer: { httpStatus: 503, outcome: 'retry' }, error: expect.stringMatching(/STATUS_PUSH_RETRY_MAX_AGE_MS/) });
  });

  it('fails on a refusal with the platform\'s reason', () => {
    expect(decideImportAnswer(facts(1), { kind: 'failed', answer: { httpStatus: 401, body: null }, reason: 'credentials refused' }, now, policy, 0.5)).toEqual({
      kind: 'failed',
      answer: { httpStatus: 401, body: null, outcome: 'failed', at: now.toISOString() },
      error: 'credentials refused',
    });
  });
});

describe('linksRequestProblem', () => {
  it('accepts one link per integration, null unlinking', () => {
    expect(linksRequestProblem([{ integrationId: 'a', platformProductId: 'p1' }, { integrationId: 'b', platformProductId: null }])).toBeUndefined();
    expect(linksRequestProblem([])).toBeUndefined();
  });

  it('refuses an integration listed twice, naming the second', () => {
    expect(linksRequestProblem([{ integrationId: 'a', platformProductId: 'p1' }, { integrationId: 'b', platformProductId: 'p2' }, { integrationId: 'a', platformProductId: 'p3' }])).toEqual({
      field: 'links[2].integrationId',
      message: expect.stringMatching(/twice/),
    });
  });
});

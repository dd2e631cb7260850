import { SimulatorRequest, SimulatorResponse, SimulatorServer } from './simulator-server';

/** A platform that echoes what it read, and takes a form on its token route only. */
class EchoSimulator extends SimulatorServer {
  protected override acceptsForm(request: SimulatorRequest): boolean {
    return request.path === '/token';
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    return { status: 200, body: { read: request.body ?? null } };
  }

  protected override adminRoute(request: SimulatorRequest): SimulatorResponse {
    return { status: 200, body: { read: request.body ?? null } };
  }
}

describe('SimulatorServer bodies', () => {
  const sim = new EchoSimulator();
  beforeAll(() => sim.start());
  afterAll(() => sim.stop());

  const send = async (path: string, body: string, type?: string) => {
    const response = await fetch(`${sim.baseUrl}${path}`, { method: 'POST', headers: type === undefined ? {} : { 'Content-Type': type }, body });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it.each(['text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])('answers a body typed %s with 415, and does not read it', async (type) => {
    const before = sim.calls.length;
    expect(await send('/orders', '{"id":"1"}', type)).toMatchObject({ status: 415 });
    expect(sim.calls.slice(before)).toEqual([expect.objectContaining({ path: '/orders', status: 415, body: undefined })]);
    expect(await send('/_simulator/orders', '{"id":"1"}', type)).toMatchObject({ status: 415 });
  });

  it('refuses a body without a Content-Type', async () => {
    const response = await fetch(`${sim.baseUrl}/orders`, { method: 'POST', body: new Blob(['{"id":"1"}']) });
    expect(response.status).toBe(415);
  });

  it('reads JSON (application/json, application/<name>+json) and a form where the platform takes one; an empty body of any type', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
      expect(await send('/orders', '{"id":"1"}', type)).toEqual({ status: 200, body: { read: { id: '1' } } });
    }
    expect(await send('/token', 'grant_type=client_credentials', 'application/x-www-form-urlencoded')).toEqual({ status: 200, body: { read: { grant_type: 'client_credentials' } } });
    expect(await send('/orders', '', 'text/plain')).toEqual({ status: 200, body: { read: null } });
  });
});

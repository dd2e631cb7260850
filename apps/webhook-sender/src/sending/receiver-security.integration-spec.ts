import { HostResolver } from '@courier/http';
import { sleep } from '@courier/testing';
import { deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { makeCertificates, startReceiver, TestCertificates, TestReceiver } from '../../test/receivers';

/** Local names the tests resolve: what a DNS answer could say, pointed at this machine or a private network. */
const resolver: HostResolver = async (host) => {
  const table: Record<string, string[]> = {
    'receiver.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'private.test': ['10.20.30.40'],
    'metadata.test': ['169.254.169.254'],
  };
  if (table[host]) return table[host];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** The send-time URL policy and TLS, end to end through the app (order event in, attempt recorded). */
describe('receiver URL policy and TLS at send time', () => {
  let certificates: TestCertificates;
  let plain: TestReceiver;
  let trusted: TestReceiver;
  let selfSigned: TestReceiver;

  beforeAll(async () => {
    certificates = makeCertificates();
    plain = await startReceiver();
    trusted = await startReceiver(undefined, certificates.issued);
    selfSigned = await startReceiver(undefined, certificates.selfSigned);
  });
  afterAll(async () => {
    await Promise.all([plain, trusted, selfSigned].map((receiver) => receiver?.close()));
  });

  async function firstAttempt(sender: SenderApp, statusUrl: string) {
    const account = await sender.createAccount({ statusUrl });
    const event = await sender.publishStatusChanged(account);
    const id = await deliveryIdOf(sender, event);
    return sender.waitForDelivery(account, id, (delivery) => delivery.attempts.length > 0);
  }

  describe('in production mode (WEBHOOK_ALLOW_INSECURE_URLS=false)', () => {
    let sender: SenderApp;
    beforeAll(async () => {
      sender = await startSender({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'false' }, hostResolver: resolver, trustedCa: certificates.ca });
    });
    afterAll(() => sender?.close());

    it('refuses private, loopback, link-local and IPv4-mapped addresses, literal or resolved, before connecting', async () => {
      const cases: Array<[string, string]> = [
        [`https://127.0.0.1:${trusted.port}/hook`, 'URL refused: host must be a public address (127.0.0.1 is loopback)'],
        [`https://receiver.test:${trusted.port}/hook`, 'URL refused: host must be a public address (receiver.test is loopback)'],
        [`https://mapped.test:${trusted.port}/hook`, 'URL refused: host must be a public address (mapped.test is loopback)'],
        [`https://[::ffff:7f00:1]:${trusted.port}/hook`, 'URL refused: host must be a public address'],
        [`https://private.test:${trusted.port}/hook`, 'URL refused: host must be a public address (private.test is private)'],
        [`https://metadata.test/latest/meta-data`, 'URL refused: host must be a public address (metadata.test is link-local)'],
        [plain.url('/hook'), 'URL refused: must be an https URL'],
      ];
      for (const [url, error] of cases) {
        const delivery = await firstAttempt(sender, url);
        expect(delivery.status).toBe('retrying');
        expect(delivery.attempts[0]).toMatchObject({ url, statusCode: null });
        expect(delivery.attempts[0].error).toContain(error);
      }
      await sleep(200);
      expect(trusted.requests).toHaveLength(0);
      expect(plain.requests).toHaveLength(0);
    });
  });

  describe('in development mode (WEBHOOK_ALLOW_INSECURE_URLS=true)', () => {
    let sender: SenderApp;
    beforeAll(async () => {
      sender = await startSender({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' }, hostResolver: resolver, trustedCa: certificates.ca });
    });
    afterAll(() => sender?.close());

    it('allows http and loopback receivers, connecting to the address the name resolved to', async () => {
      const delivery = await firstAttempt(sender, plain.url('/dev', 'receiver.test'));
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, error: null });
      expect(plain.at('/dev')[0].headers.host).toBe(`receiver.test:${plain.port}`);
    });

    it('still verifies certificates: a self-signed receiver is refused', async () => {
      const delivery = await firstAttempt(sender, selfSigned.url('/self', 'receiver.test'));
      expect(delivery.status).toBe('retrying');
      expect(delivery.attempts[0].statusCode).toBeNull();
      expect(delivery.attempts[0].error).toMatch(/^TLS certificate refused \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/);
      expect(selfSigned.requests).toHaveLength(0);
    });

    it('delivers over HTTPS when the certificate is valid for the host name (SNI kept while connecting to the checked address)', async () => {
      const delivery = await firstAttempt(sender, trusted.url('/tls', 'receiver.test'));
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, error: null });
      expect(trusted.at('/tls')).toHaveLength(1);
      // An IP literal is verified against the certificate's IP names (this one has 127.0.0.1).
      const literal = await firstAttempt(sender, trusted.url('/tls-ip'));
      expect(literal.attempts[0]).toMatchObject({ statusCode: 200 });
    });
  });
});

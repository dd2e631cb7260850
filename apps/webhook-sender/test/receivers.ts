import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '@courier/testing';

/** A webhook as a test receiver got it: the raw bytes, headers (lower-case names) and arrival time. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** What the receiver answers to its n-th request (1-based): status, optional body and headers, and a delay first. */
export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type Behaviour = (request: ReceivedRequest, count: number) => Answer;

export interface TestReceiver {
  port: number;
  url(pathname: string, host?: string): string;
  requests: ReceivedRequest[];
  /** Requests whose path is `pathname`. */
  at(pathname: string): ReceivedRequest[];
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** A local receiver on 127.0.0.1 (http, or https with the given certificate) that records every request. */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200, body: '{"received":true}' }), tls?: { key: string; cert: string }): Promise<TestReceiver> {
  let current = behaviour;
  const requests: ReceivedRequest[] = [];
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      requests.push(received);
      const answer = current(received, requests.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = tls ? 'https' : 'http';
  return {
    port,
    url: (pathname, host = '127.0.0.1') => `${scheme}://${host}:${port}${pathname}`,
    requests,
    at: (pathname) => requests.filter((request) => request.path === pathname),
    behave: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestCertificates {
  /** Self-signed, for 127.0.0.1 and receiver.test: no client trusts it. */
  selfSigned: { key: string; cert: string };
  /** Issued by `ca` for receiver.test and 127.0.0.1. */
  issued: { key: string; cert: string };
  ca: string;
}

/** Certificates made with openssl for the TLS tests (a throwaway CA, a leaf it issued, a self-signed one). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    const san = 'subjectAltName=DNS:receiver.test,IP:127.0.0.1';
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('self.key'), '-out', file('self.crt'), '-days', '2', '-subj', '/CN=receiver.test', '-addext', san);
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '2', '-subj', '/CN=Webhook Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=receiver.test');
    writeFileSync(file('leaf.ext'), `${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
    openssl('x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('leaf.crt'), '-days', '2', '-extfile', file('leaf.ext'));
    const read = (name: string) => readFileSync(file(name), 'utf8');
    return { selfSigned: { key: read('self.key'), cert: read('self.crt') }, issued: { key: read('leaf.key'), cert: read('leaf.crt') }, ca: read('ca.crt') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits until `receiver` got `count` requests on `pathname` whose body contains `marker`; returns them. */
export async function waitForRequests(receiver: TestReceiver, pathname: string, marker: string, count = 1, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
  return waitFor<ReceivedRequest[] | undefined>(
    `${count} request(s) to ${pathname} with ${marker}`,
    () => {
      const matching = receiver.at(pathname).filter((request) => request.body.includes(marker));
      return matching.length >= count ? matching : undefined;
    },
    timeoutMs,
  ) as Promise<ReceivedRequest[]>;
}

import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface ReceivedIntakeCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type IntakeReply = (call: ReceivedIntakeCall) => { status: number; body?: unknown; contentType?: string; headers?: Record<string, string> };

/** 202 as decisions.md specifies it, with a fresh yemekKuryeOrderId. */
export const acceptOrder: IntakeReply = (call) => ({
  status: 202,
  body: { status: 'accepted', orderId: call.body.orderId, yemekKuryeOrderId: randomUUID(), receivedAt: new Date().toISOString() },
});

/** A stand-in for the service's intake endpoint, on 127.0.0.1 and a random port. */
export class FakeIntake {
  readonly calls: ReceivedIntakeCall[] = [];
  reply: IntakeReply = acceptOrder;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          body = {};
        }
        const call = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        this.calls.push(call);
        const answer = this.reply(call);
        res.statusCode = answer.status;
        for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
        if (answer.body !== undefined) {
          res.setHeader('Content-Type', answer.contentType ?? 'application/json');
          res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
        } else {
          res.end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

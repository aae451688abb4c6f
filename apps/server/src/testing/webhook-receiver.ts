import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifySignature } from '../modules/notifications/webhook';

export interface ReceivedHook {
  deliveryId: string;
  body: Record<string, unknown>;
}

/**
 * A user's webhook endpoint for tests: accepts a POST only when its signature verifies with `secret`
 * (401 otherwise, so a wrong signature fails the delivery), and answers `status` when told to fail.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  readonly rejected: string[] = [];
  failWith: number | null = null;
  secret = '';
  private server: Server | undefined;

  get url(): string {
    if (!this.server) throw new Error('start() the receiver first');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        if (this.failWith !== null) {
          response.writeHead(this.failWith).end();
          return;
        }
        const signature = request.headers[SIGNATURE_HEADER];
        if (!verifySignature(this.secret, raw, typeof signature === 'string' ? signature : undefined)) {
          this.rejected.push(raw);
          response.writeHead(401).end();
          return;
        }
        this.received.push({ deliveryId: String(request.headers[DELIVERY_HEADER]), body: JSON.parse(raw) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

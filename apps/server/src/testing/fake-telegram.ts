import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message the fake bot sent. */
export interface SentMessage {
  chatId: string;
  text: string;
}

/**
 * A loopback Telegram Bot API for tests, behaving as core.telegram.org/bots/api documents:
 * - #making-requests: methods at `/bot<token>/<METHOD_NAME>`, names case-insensitive, parameters as JSON
 *   (or query string); every answer is `{ ok: true, result }` or `{ ok: false, error_code, description }`,
 *   with `parameters.retry_after` on flood control (#responseparameters); a wrong token answers 401
 *   "Unauthorized", an unknown method 404 "Not Found".
 * - #sendmessage: requires `chat_id` and `text` (1-4096 characters, else 400 "Bad Request: message text is
 *   empty" / "message is too long"); an unknown chat answers 400 "Bad Request: chat not found"; the result
 *   is the sent Message.
 * - #getupdates: returns updates with `update_id >= offset`, oldest first; calling it with an offset
 *   confirms (forgets) every update below it.
 */
export class FakeTelegram {
  readonly sent: SentMessage[] = [];
  /** Chats that exist (a user started the bot in them). */
  readonly chats = new Set<string>();
  private updates: Array<{ update_id: number; message: unknown }> = [];
  private nextUpdateId = 100;
  private nextMessageId = 1;
  private floodFor = 0;
  private server: Server | undefined;

  constructor(readonly token = '123456:TEST-token-for-the-fake-bot-api') {}

  get url(): string {
    if (!this.server) throw new Error('start() the fake first');
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** A user writes `text` to the bot from chat `chatId`. */
  userWrites(chatId: string, text: string): void {
    this.chats.add(chatId);
    this.updates.push({
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: 'private' },
        from: { id: Number(chatId), is_bot: false, first_name: 'Test' },
        text,
      },
    });
  }

  /** The next `calls` calls answer 429 with `retry_after` (flood control). */
  flood(calls: number): void {
    this.floodFor = calls;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        const answer = this.handle(request.url ?? '', raw);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private handle(url: string, raw: string): { status: number; body: unknown } {
    const parsed = new URL(url, 'http://x');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(parsed.pathname);
    if (!match) return fail(404, 'Not Found');
    if (match[1] !== this.token) return fail(401, 'Unauthorized');
    const params: Record<string, unknown> = raw ? JSON.parse(raw) : Object.fromEntries(parsed.searchParams);
    if (this.floodFor > 0) {
      this.floodFor -= 1;
      return {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 1',
          parameters: { retry_after: 1 },
        },
      };
    }
    switch (match[2]!.toLowerCase()) {
      case 'sendmessage':
        return this.sendMessage(params);
      case 'getupdates':
        return this.getUpdates(params);
      default:
        return fail(404, 'Not Found');
    }
  }

  private sendMessage(params: Record<string, unknown>) {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    const text = typeof params.text === 'string' ? params.text : '';
    if (!chatId) return fail(400, 'Bad Request: chat_id is empty');
    if (!text.trim()) return fail(400, 'Bad Request: message text is empty');
    if (text.length > 4096) return fail(400, 'Bad Request: message is too long');
    if (!this.chats.has(chatId)) return fail(400, 'Bad Request: chat not found');
    this.sent.push({ chatId, text });
    const message = {
      message_id: this.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(chatId), type: 'private' },
      text,
    };
    return { status: 200, body: { ok: true, result: message } };
  }

  private getUpdates(params: Record<string, unknown>) {
    const offset = params.offset === undefined ? undefined : Number(params.offset);
    if (offset !== undefined) this.updates = this.updates.filter((u) => u.update_id >= offset);
    return { status: 200, body: { ok: true, result: [...this.updates] } };
  }
}

function fail(status: number, description: string) {
  return { status, body: { ok: false, error_code: status, description } };
}

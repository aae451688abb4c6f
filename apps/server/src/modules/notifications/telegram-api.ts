import type { TelegramConfig } from '../../config/env';

/** A failed Bot API call; `retryAfterS` set when Telegram asks to wait (flood control). */
export class TelegramError extends Error {
  constructor(
    message: string,
    readonly errorCode: number | undefined,
    readonly retryAfterS: number | undefined,
  ) {
    super(message);
  }
}

/** The parts of an Update we read (core.telegram.org/bots/api#update, #message, #chat). */
export interface TelegramUpdate {
  update_id: number;
  message?: { message_id: number; date: number; chat: { id: number; type: string }; text?: string };
}

type ApiResponse<T> =
  | { ok: true; result: T; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

/**
 * The platform bot's side of the Telegram Bot API over HTTPS. Requests are
 * `POST {apiUrl}/bot<token>/<method>` with a JSON body, and every answer is a JSON object whose `ok` says
 * whether `result` or `description`/`error_code` (and `parameters.retry_after` on flood control) follows
 * (core.telegram.org/bots/api#making-requests, #responseparameters). The URL holds the token, so it is never
 * put in an error or a log line.
 */
export class TelegramApi {
  constructor(
    private readonly config: TelegramConfig,
    private readonly timeoutMs = 10_000,
  ) {}

  get username(): string | null {
    return this.config.username;
  }

  async call<T>(method: string, params: Record<string, unknown>, timeoutMs = this.timeoutMs): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.config.apiUrl}/bot${this.config.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new TelegramError(
        `Telegram ${method} did not answer (${(error as Error).name})`,
        undefined,
        undefined,
      );
    }
    let body: ApiResponse<T>;
    try {
      body = (await response.json()) as ApiResponse<T>;
    } catch {
      throw new TelegramError(
        `Telegram ${method} answered HTTP ${response.status}`,
        response.status,
        undefined,
      );
    }
    if (body.ok) return body.result;
    throw new TelegramError(
      `Telegram ${method} failed: ${body.error_code} ${body.description}`,
      body.error_code,
      body.parameters?.retry_after,
    );
  }

  /** core.telegram.org/bots/api#sendmessage: `chat_id` and `text` (1-4096 characters). */
  async sendMessage(chatId: string, text: string): Promise<void> {
    await this.call('sendMessage', { chat_id: chatId, text: text.slice(0, 4096) });
  }

  /**
   * core.telegram.org/bots/api#getupdates: long polling. `offset` one above the highest update_id seen
   * confirms the earlier updates, so they are not returned again; `allowed_updates` narrows them to messages.
   */
  async getUpdates(offset: number | undefined, timeoutS: number): Promise<TelegramUpdate[]> {
    return this.call<TelegramUpdate[]>(
      'getUpdates',
      { ...(offset === undefined ? {} : { offset }), timeout: timeoutS, allowed_updates: ['message'] },
      (timeoutS + 10) * 1000,
    );
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicWebhookUrl, publicOnlyLookup, type WebhookTargetPolicy } from './webhook-guard';

export const SIGNATURE_HEADER = 'x-gridbot-signature';
export const DELIVERY_HEADER = 'x-gridbot-delivery';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the user's webhook key. */
export function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a receiver does to trust a body: recompute and compare in constant time. */
export function verifySignature(secret: string, body: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * What a failed delivery says, to the user (the test button, the channel's health) and in the outbox: the
 * same words whether the port was refused, closed, filtered, the TLS handshake failed or the address is
 * private, so the test button cannot be used to map ports. The log keeps the cause.
 */
export const WEBHOOK_UNREACHABLE = 'webhook could not be reached';

/** How long a delivery waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * POSTs a signed JSON body. `X-Gridbot-Delivery` is the same on every retry of one delivery, so a receiver
 * that saw a delivery arrive although our side timed out can drop the repeat. Anything but 2xx fails;
 * redirects are not followed. Unless the policy allows private targets, the URL must be https and resolve
 * to public addresses only, checked before the request and again on the connection's own lookup
 * (webhook-guard.ts).
 */
export async function postWebhook(
  url: string,
  secret: string,
  deliveryId: string,
  payload: unknown,
  policy: WebhookTargetPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  const body = JSON.stringify(payload);
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const unreachable = (cause: unknown) => new Error(WEBHOOK_UNREACHABLE, { cause });
  await assertPublicWebhookUrl(url, policy).catch((error: unknown) => {
    throw unreachable(error);
  });
  const status = await new Promise<number>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Gridbot-Webhook/1',
          [SIGNATURE_HEADER]: signatureOf(secret, body),
          [DELIVERY_HEADER]: deliveryId,
        },
        ...(policy.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', (error) => reject(unreachable(error)));
    request.end(body);
  });
  if (status < 200 || status >= 300) throw new Error(`webhook answered HTTP ${status}`);
}

import { createHmac, timingSafeEqual } from 'node:crypto';

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
 * POSTs a signed JSON body. `X-Gridbot-Delivery` is the same on every retry of one delivery, so a receiver
 * that saw a delivery arrive although our side timed out can drop the repeat. Anything but 2xx fails.
 */
export async function postWebhook(
  url: string,
  secret: string,
  deliveryId: string,
  payload: unknown,
  timeoutMs = 5_000,
): Promise<void> {
  const body = JSON.stringify(payload);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Gridbot-Webhook/1',
        [SIGNATURE_HEADER]: signatureOf(secret, body),
        [DELIVERY_HEADER]: deliveryId,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Error(`webhook did not answer (${(error as Error).name})`);
  }
  await response.body?.cancel();
  if (response.status < 200 || response.status >= 300)
    throw new Error(`webhook answered HTTP ${response.status}`);
}

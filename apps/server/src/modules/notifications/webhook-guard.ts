import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** A webhook URL whose host is not a public address: never posted to. */
export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
}

/**
 * Whether an address is a public unicast one. Loopback, private (RFC 1918, unique local fc00::/7),
 * link-local (169.254.0.0/16 with the cloud metadata service 169.254.169.254, fe80::/10), carrier-grade
 * NAT (100.64.0.0/10, where Alibaba's metadata lives), unspecified, multicast and reserved ranges are all
 * refused: ipaddr.js names every such range, and only "unicast" is left. An IPv6 address that carries an
 * IPv4 one is judged by that IPv4 address (`embeddedIPv4`), since that is where its packets end up.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv4) return parsed.range() === 'unicast';
  const embedded = embeddedIPv4(parsed);
  if (embedded === null) return false;
  if (embedded) return embedded.range() === 'unicast';
  return parsed.range() === 'unicast';
}

/**
 * The IPv4 address inside an IPv6 one, for every form that embeds one: IPv4-compatible `::/96` (RFC 4291
 * §2.5.5.1, deprecated, yet `::7f00:1` still reaches 127.0.0.1 on some stacks), IPv4-mapped `::ffff:0:0/96`
 * (§2.5.5.2), IPv4-translated `::ffff:0:0:0/96` (RFC 6145), the NAT64 well-known prefix `64:ff9b::/96`
 * (RFC 6052 §2.1: the last 32 bits) and 6to4 `2002::/16` (RFC 3056 §2: bits 16-47). `undefined`: none
 * embedded. `null`: a form whose IPv4 address cannot be read for sure, refused: the local-use NAT64 prefix
 * `64:ff9b:1::/48` (RFC 8215, where the operator picks the prefix length) and Teredo `2001::/32` (RFC 4380).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  const p = address.parts;
  const last32 = () => ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4;
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (zero(0, 6) && !(p[6] === 0 && (p[7] ?? 0) <= 1)) return last32();
  if (zero(0, 5) && p[5] === 0xffff) return last32();
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return last32();
  if (p[0] === 0x64 && p[1] === 0xff9b) return zero(2, 6) ? last32() : null;
  if (p[0] === 0x2002) return ipaddr.fromByteArray(address.toByteArray().slice(2, 6)) as ipaddr.IPv4;
  if (p[0] === 0x2001 && p[1] === 0) return null;
  return undefined;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Whether webhooks may reach loopback and private addresses: only with `WEBHOOK_ALLOW_PRIVATE=true`, for a
 * receiver on this machine or network under local testing (the setting is refused in production).
 */
export interface WebhookTargetPolicy {
  allowPrivate: boolean;
}

/** The deployment's policy (`AppConfig.webhookAllowPrivate`); absent: public targets only. */
export const webhookTargetsOf = (config: { webhookAllowPrivate?: boolean }): WebhookTargetPolicy => ({
  allowPrivate: config.webhookAllowPrivate === true,
});

/**
 * Refuses a URL whose host is, or resolves to, a non-public address (every address DNS answers must be
 * public: a name with one private answer could be steered to it). Plain http is refused too: the settings
 * schema only lets it name this machine, for a receiver under test.
 */
export async function assertPublicWebhookUrl(url: string, policy: WebhookTargetPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  const parsed = new URL(url);
  const host = hostOf(parsed);
  if (parsed.protocol !== 'https:') throw new PrivateAddressError(`webhook URL ${url} is not https`);
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await lookupAll(host, { all: true, verbatim: true }).then(
        (answers) => answers.map((a) => a.address),
        () => {
          throw new PrivateAddressError(`webhook host ${host} does not resolve`);
        },
      );
  if (addresses.length === 0 || !addresses.every(isPublicAddress))
    throw new PrivateAddressError(`webhook host ${host} is not a public address`);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The DNS lookup of a webhook connection: the answer the socket connects to is checked again, so a name
 * that resolved to a public address when it was saved cannot be re-pointed at a private one (DNS rebinding).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, answers) => {
    if (error) return callback(error, []);
    const list = answers as LookupAddress[];
    if (list.length === 0 || !list.every((a) => isPublicAddress(a.address)))
      return callback(new PrivateAddressError(`webhook host ${hostname} is not a public address`), []);
    if (options.all) return callback(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

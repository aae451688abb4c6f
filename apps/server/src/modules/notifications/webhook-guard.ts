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
 * NAT (100.64.0.0/10, where Alibaba's metadata lives), unspecified, multicast, reserved and the
 * translation prefixes that can carry a private IPv4 (NAT64, 6to4, Teredo) are all refused: ipaddr.js
 * names every such range, and only "unicast" is left.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  return parsed.range() === 'unicast';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Refuses an https URL whose host is, or resolves to, a non-public address (every address DNS answers
 * must be public: a name with one private answer could be steered to it). Plain http is only ever
 * allowed to loopback outside production (the settings schema and route), for a receiver under test.
 */
export async function assertPublicWebhookUrl(url: string): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return;
  const host = hostOf(parsed);
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

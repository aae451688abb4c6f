import { networkInterfaces } from 'node:os';

/** This machine's first external IPv4 address (API Setting shows it when SERVER_PUBLIC_IP is unset). */
export function serverPublicIp(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return '127.0.0.1';
}

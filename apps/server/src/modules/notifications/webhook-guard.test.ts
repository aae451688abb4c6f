import { createServer } from 'node:https';
import { describe, expect, it } from 'vitest';
import { postWebhook } from './webhook';
import { assertPublicWebhookUrl, isPublicAddress, PrivateAddressError } from './webhook-guard';

describe('which addresses a webhook may reach', () => {
  it.each([
    ['127.0.0.1', false],
    ['127.9.9.9', false],
    ['::1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.10', false],
    ['169.254.169.254', false], // cloud metadata (AWS, GCP, Azure)
    ['100.100.100.200', false], // Alibaba metadata, carrier-grade NAT range
    ['fd00:ec2::254', false], // AWS metadata over IPv6 (unique local)
    ['fe80::1', false],
    ['0.0.0.0', false],
    ['::ffff:127.0.0.1', false], // IPv4-mapped loopback
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['224.0.0.1', false],
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['not-an-ip', false],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses https URLs on private literals and names that resolve to loopback', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]:8443/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:7f00:1]/hook',
      'https://10.0.0.5/hook',
      'https://localhost/hook',
    ])
      await expect(assertPublicWebhookUrl(url), url).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(assertPublicWebhookUrl('https://93.184.215.14/hook')).resolves.toBeUndefined();
  });

  it('never opens a connection to a private https receiver at delivery', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('ok'));
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const host of ['127.0.0.1', 'localhost'])
        await expect(postWebhook(`https://${host}:${port}/hook`, 'k', '1', { a: 1 })).rejects.toBeInstanceOf(
          PrivateAddressError,
        );
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

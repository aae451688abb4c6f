import { createServer } from 'node:https';
import { describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../../testing/webhook-receiver';
import { postWebhook, WEBHOOK_UNREACHABLE } from './webhook';
import { assertPublicWebhookUrl, isPublicAddress, PrivateAddressError } from './webhook-guard';

const publicOnly = { allowPrivate: false };

describe('which addresses a webhook may reach', () => {
  it.each([
    ['127.0.0.1', false],
    ['127.9.9.9', false],
    ['::1', false],
    ['::', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.10', false],
    ['169.254.169.254', false], // cloud metadata (AWS, GCP, Azure)
    ['100.100.100.200', false], // Alibaba metadata, carrier-grade NAT range
    ['fd00:ec2::254', false], // AWS metadata over IPv6 (unique local)
    ['fe80::1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    // IPv4-compatible ::/96 (RFC 4291 §2.5.5.1), judged by the IPv4 address it carries
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::a00:1', false],
    ['::a9fe:a9fe', false], // 169.254.169.254
    ['::808:808', true],
    // IPv4-mapped ::ffff:0:0/96 (RFC 4291 §2.5.5.2)
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    // IPv4-translated ::ffff:0:0:0/96 (RFC 6145)
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:808:808', true],
    // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1)
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::808:808', true],
    // NAT64 local-use 64:ff9b:1::/48 (RFC 8215): where the IPv4 address sits is the operator's choice
    ['64:ff9b:1::808:808', false],
    // 6to4 2002::/16, the IPv4 address in bits 16-47 (RFC 3056 §2)
    ['2002:7f00:1::1', false],
    ['2002:a00:1::', false],
    ['2002:c0a8:101::1', false], // 192.168.1.1
    ['2002:808:808::1', true],
    // Teredo 2001::/32 (RFC 4380): the client's address is obfuscated, refused
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['not-an-ip', false],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses URLs on private literals, names that resolve to loopback, and plain http', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]:8443/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:7f00:1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b::7f00:1]/hook',
      'https://[2002:7f00:1::1]/hook',
      'https://10.0.0.5/hook',
      'https://localhost/hook',
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
    ])
      await expect(assertPublicWebhookUrl(url, publicOnly), url).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(assertPublicWebhookUrl('https://93.184.215.14/hook', publicOnly)).resolves.toBeUndefined();
    await expect(assertPublicWebhookUrl('https://[::808:808]/hook', publicOnly)).resolves.toBeUndefined();
  });

  it('never opens a connection to a private receiver at delivery', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('ok'));
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const url of [
        `https://127.0.0.1:${port}/hook`,
        `https://localhost:${port}/hook`,
        `https://[::7f00:1]:${port}/hook`,
        `http://127.0.0.1:${port}/hook`,
      ])
        await expect(postWebhook(url, 'k', '1', { a: 1 }, publicOnly), url).rejects.toThrow(
          WEBHOOK_UNREACHABLE,
        );
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('posts to a loopback receiver only where private targets are allowed (local testing)', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    receiver.secret = 'whsec-local';
    try {
      await expect(postWebhook(receiver.url, receiver.secret, '1', { a: 1 }, publicOnly)).rejects.toThrow(
        WEBHOOK_UNREACHABLE,
      );
      expect(receiver.received).toHaveLength(0);
      await postWebhook(receiver.url, receiver.secret, '2', { a: 2 }, { allowPrivate: true });
      expect(receiver.received.map((r) => r.body)).toEqual([{ a: 2 }]);
    } finally {
      await receiver.stop();
    }
  });
});

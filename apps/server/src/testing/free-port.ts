import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for child servers, Redis and chains that tests and benches start). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

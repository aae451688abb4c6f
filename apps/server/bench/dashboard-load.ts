// Load generator of dashboard.bench.ts, in its own process so it never shares the servers' event loop.
// Receives one job over IPC, answers the latencies. Keep-alive HTTP/1.1 connections (node:http agent),
// requests spread round-robin over the ports (client-side balancing, no proxy).
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadJob {
  ports: number[];
  tokens: string[];
  paths: string[];
  /** Concurrent requests in flight (one keep-alive connection each). */
  clients: number;
  /** Measured seconds, after a warm-up pass (every user's dashboard once on every port) that is not counted. */
  seconds: number;
  /**
   * Open loop: requests sent at this fixed rate (per second) whatever the answers, each timed from the
   * moment it was due, so a slow answer cannot hide the requests it held up. Without: closed loop, each
   * connection sends its next request when answered (the most the servers answer).
   */
  rate?: number;
  /** Skip the warm-up pass (the servers were warmed by an earlier job). */
  warm?: boolean;
}

export interface LoadResult {
  seconds: number;
  /** Latencies in ms per path, unsorted. */
  latencies: Record<string, number[]>;
  errors: number;
  firstError?: string;
  /** CPU time of this process during the measured seconds. */
  cpuMs: number;
}

function get(agent: Agent, port: number, path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const agents = job.ports.map(() => new Agent({ keepAlive: true, maxSockets: job.clients }));
  let errors = 0;
  let firstError: string | undefined;
  const fail = (what: string) => {
    errors += 1;
    firstError ??= what;
  };

  // Warm-up: every user's dashboard once per server (paper accounts, prepared statements, caches).
  for (let p = 0; !job.warm && p < job.ports.length; p += 1) {
    let next = 0;
    await Promise.all(
      Array.from({ length: job.clients }, async () => {
        for (let i = next++; i < job.tokens.length; i = next++)
          for (const path of job.paths) await get(agents[p]!, job.ports[p]!, path, job.tokens[i]!);
      }),
    );
  }

  const latencies: Record<string, number[]> = Object.fromEntries(job.paths.map((p) => [p, []]));
  let sent = 0;
  /** Sends request number i and records its latency from `since`. */
  const send = async (i: number, path: string, since: number) => {
    const port = i % job.ports.length;
    const token = job.tokens[(i * 7919) % job.tokens.length]!;
    try {
      const status = await get(agents[port]!, job.ports[port]!, path, token);
      if (status !== 200) fail(`${path}: HTTP ${status}`);
    } catch (error) {
      fail(`${path}: ${String(error)}`);
    }
    latencies[path]!.push(performance.now() - since);
  };
  process.send?.('measuring');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  const rate = job.rate;
  if (rate === undefined) {
    await Promise.all(
      Array.from({ length: job.clients }, async (_, c) => {
        for (let n = 0; performance.now() < deadline; n += 1)
          await send(sent++, job.paths[(c + n) % job.paths.length]!, performance.now());
      }),
    );
  } else {
    const inFlight = new Set<Promise<void>>();
    for (let now = started; now < deadline; now = performance.now()) {
      const due = Math.floor(((now - started) * rate) / 1000);
      for (; sent < due; sent += 1) {
        const request = send(sent, job.paths[sent % job.paths.length]!, started + (sent * 1000) / rate);
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(inFlight);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  for (const agent of agents) agent.destroy();
  return { seconds, latencies, errors, firstError, cpuMs: (cpu.user + cpu.system) / 1000 };
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { profileOnSignal } from './cpu-profile-signal';

it('starts a CPU profile on SIGUSR2 and writes it on the next one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cpu-profile-'));
  try {
    const lines: string[] = [];
    profileOnSignal(dir, 'api', (line) => lines.push(line));
    // Two signals sent before the first is handled may arrive as one: each is sent once the last was heard.
    // Listeners run in the order they were added, so when this one runs the profiler's handler has run.
    const heard = () => new Promise((resolve) => process.once('SIGUSR2', resolve));
    const first = heard();
    process.kill(process.pid, 'SIGUSR2');
    await first;
    expect(await readdir(dir)).toEqual([]);
    process.kill(process.pid, 'SIGUSR2');
    await vi.waitFor(async () => expect(lines).toHaveLength(1), { timeout: 5_000 });
    const [file] = await readdir(dir);
    expect(file).toMatch(new RegExp(`^api-${process.pid}-\\d+\\.cpuprofile$`));
    const profile = JSON.parse(await readFile(join(dir, file as string), 'utf8'));
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(lines).toEqual([`CPU profile written to ${join(dir, file as string)}`]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { profileOnSignal } from './cpu-profile-signal';

it('starts a CPU profile on SIGUSR2 and writes it on the next one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cpu-profile-'));
  try {
    const lines: string[] = [];
    profileOnSignal(dir, 'api', (line) => lines.push(line));
    process.kill(process.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readdir(dir)).toEqual([]);
    process.kill(process.pid, 'SIGUSR2');
    for (let i = 0; i < 50 && (await readdir(dir)).length === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const [file] = await readdir(dir);
    expect(file).toMatch(new RegExp(`^api-${process.pid}-\\d+\\.cpuprofile$`));
    const profile = JSON.parse(await readFile(join(dir, file as string), 'utf8'));
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(lines).toEqual([`CPU profile written to ${join(dir, file as string)}`]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

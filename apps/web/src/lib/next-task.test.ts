import { describe, expect, it } from 'vitest';
import { nextTask, runInNextTask } from './next-task';

describe('runInNextTask', () => {
  it('runs nothing within the current task, then each callback in order and in a task of its own', async () => {
    const seen: string[] = [];
    runInNextTask(() => {
      seen.push('first');
      // A microtask queued by the first callback runs before the second: the second is in a later task.
      queueMicrotask(() => seen.push('microtask of first'));
    });
    runInNextTask(() => seen.push('second'));
    await Promise.resolve();
    expect(seen).toEqual([]);
    await nextTask();
    expect(seen).toEqual(['first', 'microtask of first', 'second']);
  });
});

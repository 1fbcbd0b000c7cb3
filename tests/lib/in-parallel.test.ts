import { describe, expect, it } from 'vitest';
import { inParallel } from '../../src/lib/in-parallel';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('inParallel', () => {
  it('runs every item once, in order, never more than the limit at a time', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await inParallel([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, async (n) => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBe(4);
  });

  it('rejects with the first failure', async () => {
    await expect(
      inParallel(['a', 'b', 'c'], 2, async (item) => {
        await tick();
        if (item === 'b') throw new Error(`falhou ${item}`);
      }),
    ).rejects.toThrow('falhou b');
  });

  it('does nothing without items', async () => {
    let calls = 0;
    await inParallel([], 4, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { repeat } from './repeat.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('repeat', () => {
  it('skips ticks while the last run is still going, hands failures on, and stops when told', async () => {
    vi.useFakeTimers();
    let finish = () => {};
    let runs = 0;
    const failures: unknown[] = [];
    const stop = repeat(
      () => {
        runs++;
        if (runs === 2) return Promise.reject(new Error('store away'));
        return new Promise<void>((resolve) => (finish = resolve));
      },
      100,
      (err) => failures.push(err),
    );
    await vi.advanceTimersByTimeAsync(350);
    expect(runs).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(3);
    expect(failures).toEqual([new Error('store away')]);
    stop();
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
  });
});

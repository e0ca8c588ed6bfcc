import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

describe('Turns', () => {
  it(
    'runs queued work in order, in slices that end once they have taken their ' + 'time, with other tasks between',
    async () => {
      // A clock the work itself moves: each piece of work takes 4 "ms"; a slice is 10.
      let clock = 0;
      const turns = new Turns(10, () => clock);
      const seen: string[] = [];
      const work = (name: string) => () => {
        clock += 4;
        seen.push(name);
        return name.toUpperCase();
      };
      const answers = ['a', 'b', 'c', 'd', 'e'].map((name) => turns.run(work(name)));
      setImmediate(() => seen.push('| another task'));
      expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D', 'E']);
      // a, b and c fit in 10 (the slice checks its time after each piece); d starts the next slice.
      expect(seen).toEqual(['a', 'b', 'c', '| another task', 'd', 'e']);
    },
  );

  it('rejects the work that throws and goes on with the rest', async () => {
    const turns = new Turns();
    const failing = turns.run(() => {
      throw new Error('bad request');
    });
    const next = turns.run(() => 2);
    await expect(failing).rejects.toThrow('bad request');
    expect(await next).toBe(2);
  });

  it('starts afresh after running dry', async () => {
    const turns = new Turns();
    expect(await turns.run(() => 1)).toBe(1);
    expect(await turns.run(() => 2)).toBe(2);
  });
});

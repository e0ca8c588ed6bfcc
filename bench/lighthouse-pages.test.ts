import { describe, expect, it } from 'vitest';
import { medianRun, type PageScore } from './lighthouse-pages.js';

const page = { name: 'home', path: '/' };
const scored = (performance: number): PageScore => ({ ...page, performance, accessibility: 100 });

describe('medianRun', () => {
  it('reports the median run by performance score with every score, lowest first', () => {
    const run = medianRun([scored(93), scored(89), scored(96)], page);
    expect(run.performance).toBe(93);
    expect(run.performanceScores).toEqual([89, 93, 96]);
    expect(run.failedRuns).toBeUndefined();
  });

  it('names the runs that failed instead of dropping them silently', () => {
    const run = medianRun([{ ...page, error: 'no result within 120 s' }, scored(97), scored(95)], page);
    expect(run.runs).toBe(3);
    expect(run.performanceScores).toEqual([95, 97]);
    expect(run.failedRuns).toEqual(['no result within 120 s']);
  });

  it('is an error when no run scored', () => {
    expect(medianRun([{ ...page, error: 'NO_FCP: the page did not paint' }], page).error).toBe(
      'NO_FCP: the page did not paint',
    );
  });
});

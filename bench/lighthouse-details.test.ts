import { describe, expect, it } from 'vitest';
import { summarizeDetails } from './lighthouse-details.js';

describe('summarizeDetails', () => {
  it('reads a list of tables (the LCP element and its phases) and a checklist', () => {
    const lcp = {
      type: 'list',
      items: [
        {
          type: 'table',
          headings: [{ key: 'node', valueType: 'node', label: 'Element' }],
          items: [{ node: { type: 'node', snippet: '<img class="hero" src="/a.webp">', selector: 'main > img.hero' } }],
        },
        {
          type: 'table',
          headings: [
            { key: 'phase', valueType: 'text', label: 'Phase' },
            { key: 'timing', valueType: 'ms', label: 'Timing' },
          ],
          items: [{ phase: 'TTFB', timing: 601.4 }],
        },
      ],
    };
    expect(summarizeDetails(lcp)).toEqual([
      'Element: <img class="hero" src="/a.webp"> [main > img.hero]',
      'Phase: TTFB, Timing: 601 ms',
    ]);
    expect(
      summarizeDetails({
        type: 'checklist',
        items: { a: { value: true, label: 'fetchpriority=high' }, b: { value: false, label: 'lazy load not applied' } },
      }),
    ).toEqual(['not met: lazy load not applied']);
  });
});

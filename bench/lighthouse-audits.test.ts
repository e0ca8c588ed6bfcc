import { describe, expect, it } from 'vitest';
import { failingAudits } from './lighthouse-audits.js';

describe('failingAudits', () => {
  const categories = {
    performance: {
      score: 0.97,
      auditRefs: [
        { id: 'unused-javascript', weight: 0 },
        { id: 'largest-contentful-paint', weight: 25 },
        { id: 'server-response-time', weight: 0 },
      ],
    },
    accessibility: {
      score: 1,
      auditRefs: [
        { id: 'color-contrast', weight: 7 },
        { id: 'tabindex', weight: 0 },
      ],
    },
    'best-practices': {
      score: 0.96,
      auditRefs: [
        { id: 'errors-in-console', weight: 1 },
        { id: 'inspector-issues', weight: 0 },
      ],
    },
    seo: { score: 1, auditRefs: [{ id: 'canonical', weight: 1 }] },
  };
  const audits = {
    'unused-javascript': {
      id: 'unused-javascript',
      title: 'Reduce unused JavaScript',
      score: 0.5,
      scoreDisplayMode: 'metricSavings',
      displayValue: 'Est savings of 73 KiB',
      details: {
        type: 'opportunity',
        headings: [
          { key: 'url', valueType: 'url', label: 'URL' },
          { key: 'totalBytes', valueType: 'bytes', label: 'Transfer Size' },
          { key: 'wastedBytes', valueType: 'bytes', label: 'Est Savings' },
        ],
        items: [{ url: 'http://127.0.0.1:4000/assets/index-abc.js', totalBytes: 143_000, wastedBytes: 74_752 }],
      },
    },
    'largest-contentful-paint': {
      id: 'largest-contentful-paint',
      title: 'Largest Contentful Paint',
      score: 0.88,
      scoreDisplayMode: 'numeric',
      displayValue: '2.3 s',
    },
    'server-response-time': {
      id: 'server-response-time',
      title: 'Document request latency',
      score: 1,
      scoreDisplayMode: 'metricSavings',
    },
    'color-contrast': { id: 'color-contrast', title: 'Contrast', score: null, scoreDisplayMode: 'notApplicable' },
    tabindex: {
      id: 'tabindex',
      title: 'tabindex',
      score: null,
      scoreDisplayMode: 'error',
      errorMessage: 'gatherer failed',
    },
    'errors-in-console': {
      id: 'errors-in-console',
      title: 'Browser errors were logged to the console',
      score: 0,
      scoreDisplayMode: 'binary',
      details: {
        type: 'table',
        headings: [
          { key: 'sourceLocation', valueType: 'source-location', label: 'Source' },
          { key: 'description', valueType: 'code', label: 'Description' },
        ],
        items: [
          {
            sourceLocation: {
              type: 'source-location',
              url: 'http://127.0.0.1:4000/assets/index-abc.js',
              urlProvider: 'network',
              line: 0,
              column: 9,
            },
            description: 'Refused to apply inline style',
          },
        ],
      },
    },
    'inspector-issues': {
      id: 'inspector-issues',
      title: 'Issues were logged',
      score: 0,
      scoreDisplayMode: 'informative',
    },
    canonical: { id: 'canonical', title: 'Document has a valid rel=canonical', score: 1, scoreDisplayMode: 'binary' },
  };

  it(
    'lists audits below 1 by category, heaviest first, with their items, and ' +
      'leaves out informative and not-applicable ones',
    () => {
      const failing = failingAudits(categories, audits);
      expect(failing.map((a) => a.id)).toEqual([
        'largest-contentful-paint',
        'unused-javascript',
        'tabindex',
        'errors-in-console',
      ]);
      expect(failing[1]).toMatchObject({
        category: 'performance',
        displayValue: 'Est savings of 73 KiB',
        details: ['URL: /assets/index-abc.js, Transfer Size: 139.6 KiB, Est Savings: 73.0 KiB'],
      });
      expect(failing[2]).toMatchObject({
        category: 'accessibility',
        score: null,
        details: ['could not run: gatherer failed'],
      });
      expect(failing[3]!.details).toEqual([
        'Source: /assets/index-abc.js:1:10, Description: Refused to apply inline style',
      ]);
    },
  );
});

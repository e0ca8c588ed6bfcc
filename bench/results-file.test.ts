import { describe, expect, it } from 'vitest';
import { END_MARKER, replaceSection, sectionMarkers, START_MARKER } from './results-file.js';

describe('replaceSection', () => {
  it('appends the markers and the section when they are absent', () => {
    expect(replaceSection('# Results\n\n## Old\n', '## Load\n')).toBe(
      `# Results\n\n## Old\n\n${START_MARKER}\n## Load\n${END_MARKER}\n`,
    );
  });

  it('replaces only what is between the markers', () => {
    const doc = `# Results\n\n${START_MARKER}\nold table\n${END_MARKER}\n\n## After\n`;
    expect(replaceSection(doc, 'new table')).toBe(
      `# Results\n\n${START_MARKER}\nnew table\n${END_MARKER}\n\n## After\n`,
    );
  });

  it('is stable when run twice', () => {
    const once = replaceSection('# Results\n', 'x');
    expect(replaceSection(once, 'x')).toBe(once);
  });

  it('keeps named sections apart: replacing one leaves the others as they were', () => {
    const doc = replaceSection(
      replaceSection('# Results\n', 'faults v1', sectionMarkers('faults')),
      'cold v1',
      sectionMarkers('cold'),
    );
    const next = replaceSection(doc, 'cold v2', sectionMarkers('cold'));
    expect(next).toBe(
      '# Results\n\n<!-- bench:faults:start -->\nfaults v1\n<!-- ' +
        'bench:faults:end -->\n\n<!-- bench:cold:start -->\ncold v2\n<!-- ' +
        'bench:cold:end -->\n',
    );
  });
});

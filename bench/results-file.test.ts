import { describe, expect, it } from 'vitest';
import { END_MARKER, replaceSection, START_MARKER } from './results-file.js';

describe('replaceSection', () => {
  it('appends the markers and the section when they are absent', () => {
    expect(replaceSection('# Results\n\n## Old\n', '## Load\n')).toBe(`# Results\n\n## Old\n\n${START_MARKER}\n## Load\n${END_MARKER}\n`);
  });

  it('replaces only what is between the markers', () => {
    const doc = `# Results\n\n${START_MARKER}\nold table\n${END_MARKER}\n\n## After\n`;
    expect(replaceSection(doc, 'new table')).toBe(`# Results\n\n${START_MARKER}\nnew table\n${END_MARKER}\n\n## After\n`);
  });

  it('is stable when run twice', () => {
    const once = replaceSection('# Results\n', 'x');
    expect(replaceSection(once, 'x')).toBe(once);
  });
});

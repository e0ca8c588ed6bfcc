/** The load section of bench/RESULTS.md lives between two markers; everything around it is kept as it is. */
export const START_MARKER = '<!-- bench:load:start -->';
export const END_MARKER = '<!-- bench:load:end -->';

export interface SectionMarkers {
  start: string;
  end: string;
}

/**
 * Replaces the text between the markers (by default the load section's), or appends the markers and the
 * section when they are absent.
 */
export function replaceSection(document: string, section: string, markers: SectionMarkers = { start: START_MARKER, end: END_MARKER }): string {
  const block = `${markers.start}\n${section.trim()}\n${markers.end}`;
  const start = document.indexOf(markers.start);
  const end = start === -1 ? -1 : document.indexOf(markers.end, start);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${block}\n`;
  return document.slice(0, start) + block + document.slice(end + markers.end.length);
}

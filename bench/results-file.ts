/** The load section of bench/RESULTS.md lives between two markers; everything around it is kept as it is. */
export const START_MARKER = '<!-- bench:load:start -->';
export const END_MARKER = '<!-- bench:load:end -->';

/** Replaces the text between the markers, or appends the markers and the section when they are absent. */
export function replaceSection(document: string, section: string): string {
  const block = `${START_MARKER}\n${section.trim()}\n${END_MARKER}`;
  const start = document.indexOf(START_MARKER);
  const end = start === -1 ? -1 : document.indexOf(END_MARKER, start);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${block}\n`;
  return document.slice(0, start) + block + document.slice(end + END_MARKER.length);
}

import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The load section of bench/RESULTS.md lives between two markers; everything around it is kept as it is. */
export const START_MARKER = '<!-- bench:load:start -->';
export const END_MARKER = '<!-- bench:load:end -->';

/** The markers of a named section of bench/RESULTS.md (`load`, `faults`, `cold`). */
export function sectionMarkers(name: string): SectionMarkers {
  return { start: `<!-- bench:${name}:start -->`, end: `<!-- bench:${name}:end -->` };
}

/** The commit measured, and whether `dirs` held uncommitted changes. */
export function gitState(dirs: readonly string[]): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', ...dirs], { encoding: 'utf8' }).trim() !== '';
    return `commit ${head}${dirty ? ` with uncommitted changes under ${dirs.map((d) => `${d}/`).join(', ')}` : ''}`;
  } catch {
    return 'commit unknown';
  }
}

/** The machine a run was measured on, with the load average when it started and now. */
export function machineLine(loadAtStart: number): string {
  const cpus = os.cpus();
  return (
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} ` +
    `GiB, Node ${process.version}, 1-minute load average ${loadAtStart.toFixed(2)} ` +
    `at the start and ${os.loadavg()[0]!.toFixed(2)} at the end`
  );
}

export interface SectionMarkers {
  start: string;
  end: string;
}

/**
 * Replaces the text between the markers (by default the load section's), or appends the markers and the
 * section when they are absent.
 */
export function replaceSection(
  document: string,
  section: string,
  markers: SectionMarkers = { start: START_MARKER, end: END_MARKER },
): string {
  const block = `${markers.start}\n${section.trim()}\n${markers.end}`;
  const start = document.indexOf(markers.start);
  const end = start === -1 ? -1 : document.indexOf(markers.end, start);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${block}\n`;
  return document.slice(0, start) + block + document.slice(end + markers.end.length);
}

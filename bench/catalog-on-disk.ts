import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CATALOG_GENERATOR_VERSION } from '../server/catalog/manifest.js';

/** Whether `dataDir` holds a catalog of `events` events made by this generator (else the server makes one). */
export async function catalogOnDisk(dataDir: string, events: number): Promise<boolean> {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dataDir, 'catalog', 'manifest.json'), 'utf8')) as {
      events?: number;
      generator?: number;
    };
    return manifest.events === events && manifest.generator === CATALOG_GENERATOR_VERSION;
  } catch {
    return false;
  }
}

/** The first performers of the catalog: their names typed letter by letter, and whole as searches. */
export async function performerNames(dataDir: string, count: number): Promise<string[]> {
  const names: string[] = [];
  const lines = createInterface({
    input: createReadStream(path.join(dataDir, 'catalog', 'Performer.jsonl')),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (names.length >= count) break;
    if (line.trim()) names.push((JSON.parse(line) as { performer_name: string }).performer_name);
  }
  lines.close();
  return names;
}
